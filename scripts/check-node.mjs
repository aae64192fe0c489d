// npm start and npm test run this first (prestart, pretest): the project needs Node 22, which
// `npm install` puts in node_modules/.bin through the `node` package. When that binary is missing
// (its install was interrupted) the scripts would run on the system's Node and fail deep inside
// MikroORM; this says what to do instead. Plain JavaScript: it must run on any Node.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(
    `error: Node 22 or later is needed; this is Node ${process.versions.node} (${process.execPath}).\n` +
      '  node_modules/.bin/node (Node 22, from the `node` npm package) is missing: its install did not finish.\n' +
      '  Fix: `npm rebuild node` (or `npm ci` again), or install Node 22 (https://nodejs.org, `nvm install 22`).',
  );
  process.exit(1);
}
