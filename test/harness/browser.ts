// Headless Chromium for the browser suites (test/e2e/browser.*.test.ts): Debian's `chromium`
// package (CHROMIUM_PATH, default /usr/bin/chromium) driven by playwright-core, which downloads no
// browser of its own. Every request and WebSocket a page opens, and every console error, is recorded
// so a test can show that nothing left the machine and nothing failed. The host resolver maps every
// host but 127.0.0.1 (where the stack listens) to nothing, so even a page that tried could reach no other.
// Without chromium the suites fail under CI=true (.ci/run installs it) and are skipped elsewhere.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './spawn.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const present = existsSync(CHROMIUM_PATH);

/** `describe` when Chromium is there or under CI (where its absence must fail), else `describe.skip` with a note. */
export function describeBrowser(name: string, fn: () => void): void {
  if (!present && process.env.CI !== 'true') {
    console.warn(`${name}: skipped, no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
    describe.skip(name, fn);
    return;
  }
  describe(name, fn);
}

export async function launchBrowser(): Promise<Browser> {
  if (!present) throw new Error(`no Chromium at ${CHROMIUM_PATH}: .ci/run installs Debian's chromium package (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // --no-sandbox: the tests run as root, where Chromium's sandbox refuses to start
    args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', '--disable-gpu', '--no-first-run'],
  });
}

export interface Recorder {
  /** every URL the context requested, WebSockets included, in order */
  urls: string[];
  /** console errors and uncaught page errors, as text */
  errors: string[];
}

/** A fresh context (own storage) whose requests and errors are recorded. */
export async function recordingContext(browser: Browser): Promise<{ context: BrowserContext; page: Page; seen: Recorder }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const seen: Recorder = { urls: [], errors: [] };
  context.on('request', (r) => seen.urls.push(r.url()));
  const page = await context.newPage();
  watchPage(page, seen);
  return { context, page, seen };
}

export function watchPage(page: Page, seen: Recorder): void {
  page.on('websocket', (ws) => seen.urls.push(ws.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => seen.errors.push(`uncaught: ${e.message}`));
}

/** The recorded URLs whose origin (ws: counted as http:) is not one of `allowed`. */
export function foreignRequests(seen: Recorder, allowed: string[]): string[] {
  const origins = new Set(allowed.map((u) => new URL(u).origin));
  return seen.urls.filter((u) => !origins.has(new URL(u.replace(/^ws/, 'http')).origin));
}

/** Where screenshots go: .data/test-output (gitignored). */
export function outputPath(name: string): string {
  const dir = resolve(ROOT, '.data', 'test-output');
  mkdirSync(dir, { recursive: true });
  return resolve(dir, name);
}
