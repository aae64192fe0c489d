// npm run -s contract:extract -- <document.md> <name>
// Reads one API document (markdown) and writes test/contract/documents/<name>.json: its endpoint
// rows (method, path, documented request/response types and attributes, prose notes), its field
// tables (name, type, required), its error tables (code, status) and its other tables (events,
// values, limits), each row with a stable id. The output is committed and reviewed; the contract
// suite (test/contract/) reads only that file, never the document.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { extractDocument } from './contract-markdown.js';

const [source, name] = process.argv.slice(2);
if (!source || !name) {
  console.error('usage: npm run -s contract:extract -- <document.md> <name>');
  process.exit(2);
}
const doc = extractDocument(readFileSync(source, 'utf8'), name);
const dir = resolve(import.meta.dirname, '..', 'test', 'contract', 'documents');
mkdirSync(dir, { recursive: true });
const out = resolve(dir, `${name}.json`);
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`${out}: ${doc.endpoints.length} endpoint rows, ${doc.fields.length} field rows, ${doc.errors.length} error rows, ${doc.shapes.length} named shapes, ${doc.other.length} other rows, ${doc.fieldsNotShown.length} resources with fields not shown`);
