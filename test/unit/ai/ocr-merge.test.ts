// The OCR merge rule (subgraphs/ai/images/ocr.merge.ts) on Tesseract TSV and Paddle lines as the
// two engines gave them for the scanned test page (test/harness/scanned-page.ts).
import { mergeReadings, paddleNeeded, paddleLine, tesseractLines } from '../../../subgraphs/ai/images/ocr.merge.js';

const head = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
const w = (line: number, left: number, top: number, width: number, conf: number, text: string) => `5\t1\t1\t1\t${line}\t1\t${left}\t${top}\t${width}\t20\t${conf}\t${text}`;
const TSV = [
  head,
  w(1, 40, 42, 88, 96.7, 'Apache'),
  w(1, 139, 42, 88, 96.0, 'License'),
  w(2, 40, 130, 81, 96.7, 'TERMS'),
  w(2, 130, 130, 52, 96.2, 'AND'),
  w(3, 308, 334, 11, 85.3, 't'),
  w(3, 328, 323, 95, 96.0, 'License'),
  w(4, 80, 357, 72, 94.2, 'Grant'),
  w(4, 161, 350, 23, 96.9, 'of'),
  w(4, 194, 335, 113, 58.4, 'copytigh'),
].join('\n');

test('Tesseract rows become lines with spacing, a box and the mean confidence', () => {
  const lines = tesseractLines(TSV);
  expect(lines[0]).toMatchObject({ text: 'Apache License', box: { x: 40, y: 42, width: 187, height: 20 }, source: 'tesseract' });
  expect(lines[0].confidence).toBeCloseTo(0.9635, 3);
});

test("sure Tesseract lines stay; Paddle's rotated line replaces the unsure fragments; unmatched Paddle lines are added", () => {
  const paddle = [
    paddleLine('ApacheLicense', 0.99, [[43, 50], [233, 50], [233, 77], [43, 77]]),
    paddleLine('TERMSAND', 0.98, [[41, 131], [200, 131], [200, 152], [41, 152]]),
    paddleLine('Grant of Copyright License', 0.998, [[82, 380], [433, 334], [436, 362], [86, 408]]),
    paddleLine('Footer', 0.9, [[40, 600], [120, 600], [120, 620], [40, 620]]),
  ];
  const merged = mergeReadings(tesseractLines(TSV), paddle);
  expect(merged.map((l) => l.text)).toEqual(['Apache License', 'TERMS AND', 'Grant of Copyright License', 'Footer']);
  const rotated = merged.find((l) => l.text.startsWith('Grant'))!;
  expect(rotated.source).toBe('paddle');
  expect(rotated.angle).toBeGreaterThan(7);
});

test("Paddle's recogniser reads only sloped lines and lines Tesseract did not read whole and sure", () => {
  const tess = tesseractLines(TSV);
  // level, Tesseract sure and spanning it: skipped
  expect(paddleNeeded([[43, 50], [233, 50], [233, 77], [43, 77]], tess)).toBe(false);
  // the turned line: read whatever Tesseract says
  expect(paddleNeeded([[82, 380], [433, 334], [436, 362], [86, 408]], tess)).toBe(true);
  // level but Tesseract found nothing there
  expect(paddleNeeded([[40, 600], [120, 600], [120, 620], [40, 620]], tess)).toBe(true);
  // level, Tesseract sure but read only the first part of a longer line
  expect(paddleNeeded([[40, 130], [600, 130], [600, 152], [40, 152]], tess)).toBe(true);
  // level, covered, but one of Tesseract's lines inside is unsure
  expect(paddleNeeded([[300, 320], [430, 320], [430, 345], [300, 345]], [{ ...tess[0], box: { x: 300, y: 322, width: 125, height: 20 }, confidence: 0.6 }])).toBe(true);
});
