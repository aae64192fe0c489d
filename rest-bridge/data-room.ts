// The investor data room at GET /data-room: the reporting endpoints (docs/reporting.md) as numbers
// and charts, for a user signed in with a platform JWT. The page is the plain HTML, CSS and script
// in data-room/ (no build step) plus Chart.js's UMD bundle from node_modules, all from this origin;
// the page's script calls this server's own /reporting/* paths. Its Content-Security-Policy allows
// this origin only (no inline script or style), so nothing the page does can leave the machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile, staticPageHandler } from '../lib/static-page.js';

export const DATA_ROOM_PATH = '/data-room';

const HERE = join(import.meta.dirname, 'data-room');
const own = (name: string) => () => join(HERE, name);

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const sendDataRoom = staticPageHandler({
  path: DATA_ROOM_PATH,
  html: readFileSync(join(HERE, 'data-room.html'), 'utf8'),
  csp: CSP,
  assets: {
    'data-room.js': { file: own('data-room.js') },
    'data-room.css': { file: own('data-room.css') },
    // chart.js's package exports hide its dist/ folder: found from its CommonJS entry, dist/chart.cjs
    'chart.umd.min.js': { file: () => packageFile('chart.js', 'chart.umd.min.js') },
  },
});
