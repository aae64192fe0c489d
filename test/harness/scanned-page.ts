// A "scanned page" for OCR tests and the bench: real text (the opening of Debian's copy of the
// Apache License 2.0, /usr/share/common-licenses/Apache-2.0) rendered with DejaVu Sans by sharp's
// SVG renderer, plus one line rotated by 8 degrees, a light-grey paper tone and a slight blur as a
// scanner would leave. Returns the PNG and the lines it shows.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

export const ROTATED_LINE = 'Grant of Copyright License';

export function pageLines(): string[] {
  const text = readFileSync('/usr/share/common-licenses/Apache-2.0', 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
  // "Apache License", "Version 2.0, January 2004", the URL, the title, "1. Definitions.", two sentences
  return [text[0], text[1], text[3], text[4], text[5], text[6]];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export async function scannedPage(opts: { turn?: 0 | 90 | 180 | 270 } = {}): Promise<{ png: Buffer; lines: string[] }> {
  const lines = pageLines();
  const rows = lines.map((l, i) => `<text x="40" y="${60 + i * 44}" font-family="DejaVu Sans" font-size="24" fill="#111">${esc(l)}</text>`).join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="420">
<rect width="100%" height="100%" fill="#f4f2ec"/>
${rows}
<text x="80" y="385" font-family="DejaVu Sans" font-size="26" fill="#111" transform="rotate(-8 80 385)">${esc(ROTATED_LINE)}</text>
</svg>`;
  let img = sharp(Buffer.from(svg)).blur(0.6);
  if (opts.turn) img = sharp(await img.png().toBuffer()).rotate(opts.turn);
  return { png: await img.png().toBuffer(), lines: [...lines, ROTATED_LINE] };
}
