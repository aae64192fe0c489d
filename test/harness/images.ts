// Real images over HTTP for the AI image tests: Debian darknet's sample photos and the scanned page
// (scanned-page.ts), served by one small server per test process on 127.0.0.1 (the test stack runs
// with ALLOW_PRIVATE_NETWORK_FETCH=1, so the AI service may fetch from it).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scannedPage } from './scanned-page.js';

const DARKNET = '/usr/share/darknet/data';
const g = globalThis as { __aiImageServer?: { server: Server; base: string } };

const pages = new Map<string, Promise<Buffer>>();
function page(turn: 0 | 90 | 180 | 270): Promise<Buffer> {
  const k = String(turn);
  if (!pages.has(k)) pages.set(k, scannedPage({ turn }).then((p) => p.png));
  return pages.get(k)!;
}

/** Base URL of the image server (started on first call): /photo/<name>.jpg, /page.png, /page-<deg>.png, /text.jpg, /missing.jpg */
export async function imageServer(): Promise<string> {
  if (g.__aiImageServer) return g.__aiImageServer.base;
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    const photo = /^\/photo\/(\w+)\.jpg$/.exec(url);
    const turned = /^\/page(?:-(90|180|270))?\.png$/.exec(url);
    if (photo) {
      try {
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(readFileSync(`${DARKNET}/${photo[1]}.jpg`));
      } catch {
        res.writeHead(404).end();
      }
    } else if (turned) void page(Number(turned[1] ?? 0) as 0).then((b) => res.writeHead(200, { 'content-type': 'image/png' }).end(b));
    else if (url === '/text.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('This is a text file pretending to be a JPEG.');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  server.unref();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  g.__aiImageServer = { server, base };
  return base;
}

/** Synchronous form for fixtures built before any await: the URL of a photo once imageServer() ran. */
export function photoUrl(name: string): string {
  if (!g.__aiImageServer) throw new Error('call imageServer() first (test/harness/images.ts)');
  return `${g.__aiImageServer.base}/photo/${name}.jpg`;
}
