// Markdown → contract rows, for scripts/contract-extract.ts. Pure: text in, rows out.
//
// Tables are classified by their header: Method+Path (or "Method, path") → endpoint rows;
// Field/Attribute+Type → field rows; Parameter+Type → query-parameter rows; Code → error rows;
// anything else (events, values, limits) → other rows. Inline endpoints (`POST /path` in prose) and
// the field lists written as prose under a resource heading are extracted too. Type words are
// normalised to string | integer | number | boolean | object | array | datetime (null: the document
// gives none), the document's own words kept in `raw`.

export type Canon = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'datetime';

export interface Attr {
  name: string;
  type: Canon | null;
  raw?: string;
  /** the fields of each element ("array of label, confidence") or of the object ("object with positive, neutral, negative numbers") */
  items?: Attr[];
  /** written as "responses add …" / "Responses carry …": not part of a request */
  responseOnly?: boolean;
}

export interface EndpointRow {
  id: string;
  section: string;
  method: string;
  path: string;
  query?: string;
  requestType?: string;
  requestAttrs?: Attr[];
  responseType?: string;
  responseAttrs?: Attr[];
  /** the document's words about the body, purpose or response */
  note?: string;
}

export interface FieldRow extends Attr {
  id: string;
  /** field table (`table`), prose list under a resource heading (`prose`), query-parameter table (`query`) */
  kind: 'table' | 'prose' | 'query';
  resource: string;
  required?: boolean;
  note?: string;
  /** `data.type` the document gives the resource, when it does */
  dataType?: string;
}

export interface ErrorRow {
  id: string;
  section: string;
  code: string;
  status: number | null;
  meaning: string;
}

export interface OtherRow {
  id: string;
  section: string;
  cells: Record<string, string>;
}

/** A body the document names and lists outside an endpoint table ("Response type `suggestions`: …"). */
export interface ShapeRow {
  id: string;
  section: string;
  name: string;
  role: 'request' | 'response';
  attrs: Attr[];
  dataType?: string;
}

/**
 * A resource the document says has fields it does not show ("Fields of subscription, … records: not
 * shown", "Fields of a prompt record beyond its identifier, …: not shown"). `record`: the record has
 * fields the document does not list, so attributes a client sends beyond the listed ones are kept
 * as given (README, "Unknown attributes → 422"); `response`: only the answer's fields are not shown
 * ("Fields of category, … responses"), the request's fields are listed, so unknown ones are refused.
 */
export interface FieldsNotShownRow {
  id: string;
  section: string;
  /** the document's words for the resource, singular where it writes the singular */
  resource: string;
  scope: 'record' | 'response';
  /** "beyond its identifier, name, …": the fields the document does show */
  shown?: string[];
  sentence: string;
}

export interface ContractDocument {
  document: string;
  shapes: ShapeRow[];
  endpoints: EndpointRow[];
  fields: FieldRow[];
  errors: ErrorRow[];
  other: OtherRow[];
  /** the document's "not shown" sentences: where the product decides */
  notShown: string[];
  /** the resources those sentences say have fields the document does not show */
  fieldsNotShown: FieldsNotShownRow[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'CRUD'];

export function canonType(text: string | undefined): Canon | null {
  if (!text) return null;
  const t = text.trim().toLowerCase();
  if (/^(string|strings|code|language codes?)\b/.test(t)) return 'string';
  if (/^integers?\b/.test(t)) return 'integer';
  if (/^numbers?\b/.test(t)) return 'number';
  if (/^booleans?\b/.test(t)) return 'boolean';
  if (/^(object|free-form)\b/.test(t)) return 'object';
  if (/^urls?$/.test(t)) return 'string';
  if (/^array\b/.test(t)) return 'array';
  if (/^(datetime|iso 8601)\b/.test(t)) return 'datetime';
  // "publishable or secret": one of the named strings
  if (/^[a-z_]+ or [a-z_]+$/.test(t)) return 'string';
  // a bare list of sub-field names ("amount, currency"): an object of those fields
  if (/^[a-z_]+(, [a-z_]+)+$/.test(t)) return 'object';
  return null;
}

/** Split on `sep` outside parentheses. */
function splitTop(text: string, seps: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth === 0 && seps.includes(ch)) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

const plural = (raw: string) => /^(strings|integers|numbers|booleans|language codes|iso 8601)\b/i.test(raw.trim());

/**
 * "text (string), max_phrases (integer)", "user_id, context, item_id (strings)": a plural type (or
 * ISO 8601) also types the untyped names before it, except ids (`*_id`: strings in all three documents).
 */
export function parseAttrList(text: string, responseOnly = false, nested = false): Attr[] {
  const out: Attr[] = [];
  let pending: Attr[] = [];
  const grouped = text
    .replace(/`/g, '')
    .replace(/ and /g, ', ')
    // "popular_searches array of query, count; period": the element fields belong to the array
    // a box: "bounding_box with x, y, width, height"
    .replace(/\b([a-z_]+) with (x, y, width, height)/g, (m, name: string, box: string) => (name === 'object' ? m : `${name} (object with ${box})`))
    // "popular_searches array of query, count; period": the element fields belong to the array (outside parentheses only)
    .replace(/\b([a-z_]+) (array of [^;()]*(?:\([^)]*\)[^;()]*)*)/g, (m, name: string, arr: string, at: number, all: string) => {
      const depth = [...all.slice(0, at)].reduce((d, ch) => d + (ch === '(' ? 1 : ch === ')' ? -1 : 0), 0);
      return !nested && depth === 0 && /,/.test(arr) ? `${name} (${arr})` : m;
    });
  for (const piece of splitTop(grouped, ',;')) {
    const m = /^([a-z_][a-z0-9_.[\]]*)\s*(?:\((.*)\))?\s*(.*)$/i.exec(piece);
    if (!m) continue;
    const [, name, paren, rest] = m;
    // "…, all strings": the type of every name before it
    if (name === 'all' && canonType(rest)) {
      for (const p of out) if (!p.raw) Object.assign(p, { type: canonType(rest), raw: rest });
      continue;
    }
    // "quantity integer" (type written after the name without parentheses)
    const raw = paren ?? (rest && canonType(rest) ? rest : undefined);
    if (paren === undefined && rest && !canonType(rest)) continue; // prose, not a field
    // "object: category name to object with …" is a map: no fixed fields
    const inner = raw && !/ to /.test(raw) ? /^(?:array of (?:objects )?|object(?: with|:) )(.*,.*)$/.exec(raw)?.[1] : undefined;
    const items = inner ? parseAttrList(inner, false, true) : [];
    const attr: Attr = { name, type: canonType(raw), ...(raw ? { raw } : {}), ...(items.length ? { items } : {}), ...(responseOnly ? { responseOnly } : {}) };
    if (raw && plural(raw)) {
      const iso = attr.type === 'datetime';
      for (const p of pending) if (iso ? /_(at|date)$/.test(p.name) : !/_id$/.test(p.name) || attr.type === 'string') Object.assign(p, { type: attr.type, raw });
      pending = [];
    } else if (!raw) pending.push(attr);
    else pending = [];
    out.push(attr);
  }
  return out;
}

/** "`sentiment_requests`: text (string), language (string)" → type and attributes. */
function typedList(cell: string): { type?: string; attrs?: Attr[] } {
  const m = /^`([a-z_]+)`\s*:\s*(.*)$/.exec(cell.trim());
  if (!m) return {};
  return { type: m[1], attrs: parseAttrList(m[2]) };
}

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** "Errors (search)" → "search"; "Products" → "products" */
function sectionKey(s: string): string {
  return slug(s.replace(/^(errors|resources and their fields|endpoints)\s*/i, '').replace(/[()]/g, ''));
}

/** "a, b and c": the names of a prose list */
const proseList = (text: string) => text.split(/,\s*|\s+and\s+/).map((s) => s.trim()).filter(Boolean);

/**
 * "Fields of <resources>: not shown." → one row per resource: "…, storage and notification-settings
 * records" (records), "a prompt record beyond its identifier, name, content and description" (one
 * record, with the fields shown), "category, collection and location responses" (answers only).
 */
export function fieldsNotShown(line: string, section: string): Omit<FieldsNotShownRow, 'id'>[] {
  const m = /^Fields of (.+?): not shown\.?$/.exec(line);
  if (!m) return [];
  const beyond = /^(?:an? )?(.+?) records? beyond (?:its )?(.+)$/.exec(m[1]);
  if (beyond) return [{ section, resource: beyond[1], scope: 'record', shown: proseList(beyond[2]), sentence: line }];
  const responses = /^(.+?) responses$/.exec(m[1]);
  const names = proseList((responses?.[1] ?? m[1]).replace(/ records$/, ''));
  return names.map((resource) => ({ section, resource, scope: responses ? ('response' as const) : ('record' as const), sentence: line }));
}

export function extractDocument(markdown: string, document: string): ContractDocument {
  const doc: ContractDocument = { document, shapes: [], endpoints: [], fields: [], errors: [], other: [], notShown: [], fieldsNotShown: [] };
  const lines = markdown.split('\n');
  const headings: string[] = [];
  const ids = new Set<string>();
  const uniqueId = (id: string) => {
    let n = id;
    for (let i = 2; ids.has(n); i++) n = `${id}#${i}`;
    ids.add(n);
    return n;
  };
  const section = () => headings.filter(Boolean).at(-1) ?? '';
  const h2 = () => headings[1] ?? headings[0] ?? '';
  let proseResource: string | null = null;
  let tableSeen = false;

  const addEndpoint = (row: Omit<EndpointRow, 'id'>) => {
    const [path, query] = row.path.split('?');
    doc.endpoints.push({ id: uniqueId(`${row.method} ${path}`), ...row, path, ...(query ? { query } : {}) });
  };

  const addField = (resource: string, kind: FieldRow['kind'], a: Attr, extra: Partial<FieldRow> = {}) => {
    doc.fields.push({ id: uniqueId(`${kind === 'query' ? 'query' : 'field'}.${slug(resource)}.${a.name}`), kind, resource, ...a, ...extra });
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = /^(#+)\s+(.*)$/.exec(line);
    if (h) {
      const level = h[1].length;
      headings.length = level;
      headings[level - 1] = h[2].trim();
      tableSeen = false;
      proseResource = level === 3 && /resources and their fields/i.test(h2()) ? h[2].trim() : null;
      continue;
    }
    if (/not shown/i.test(line)) doc.notShown.push(line.trim());
    for (const row of fieldsNotShown(line.trim(), section())) doc.fieldsNotShown.push({ ...row, id: uniqueId(`fields-not-shown.${slug(row.resource)}`) });

    if (line.trim().startsWith('|') && lines[i + 1]?.trim().startsWith('|---')) {
      tableSeen = true;
      const header = cells(line).map((c) => c.toLowerCase());
      const rows: string[][] = [];
      for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i++) rows.push(cells(lines[i]));
      i--;
      const col = (name: string) => header.findIndex((c) => c === name || c.startsWith(`${name} `));
      const sec = section();
      if (header[0] === 'method, path') {
        for (const r of rows) {
          const [method, path] = r[0].split(/\s+/);
          if (header[1] === 'purpose') {
            addEndpoint({ section: sec, method, path, note: r[1] });
            continue;
          }
          const req = typedList(r[1]);
          const res = typedList(r[2]);
          addEndpoint({ section: sec, method, path, ...(req.type ? { requestType: req.type, requestAttrs: req.attrs } : {}), ...(res.type ? { responseType: res.type, responseAttrs: res.attrs } : {}), note: `request: ${r[1]}; response: ${r[2]}` });
        }
      } else if (col('method') >= 0 && col('path') >= 0) {
        const noteCol = header.findIndex((c, k) => k !== col('method') && k !== col('path'));
        for (const r of rows) {
          const note = noteCol >= 0 ? r[noteCol] : undefined;
          const reqType = note ? /(?:^|[;,] |^create index; )(?!returns)[^;]*?type `([a-z_]+)`/.exec(note)?.[1] ?? /^type `([a-z_]+)`/.exec(note)?.[1] : undefined;
          const resType = note ? /returns type `([a-z_]+)`/.exec(note)?.[1] : undefined;
          for (const method of r[col('method')].split(/,\s*/)) {
            addEndpoint({ section: sec, method, path: r[col('path')].replace(/`/g, ''), ...(reqType ? { requestType: reqType } : {}), ...(resType ? { responseType: resType } : {}), ...(note ? { note } : {}) });
          }
        }
      } else if ((col('field') >= 0 || col('attribute') >= 0) && col('type') >= 0) {
        const nameCol = col('field') >= 0 ? col('field') : col('attribute');
        const reqCol = col('required');
        const noteCol = header.findIndex((c) => c === 'notes' || c === 'meaning');
        for (const r of rows) {
          for (const name of r[nameCol].split(/,\s*/)) {
            const note = noteCol >= 0 ? r[noteCol] : undefined;
            addField(sec, 'table', { name, type: canonType(r[col('type')]), raw: r[col('type')] }, { ...(reqCol >= 0 ? { required: r[reqCol] === 'yes' } : {}), ...(note ? { note } : {}) });
            // an object's sub-fields, as the notes list them ("amount (integer), currency (string); responses add …")
            if (canonType(r[col('type')]) === 'object' && note && /\(/.test(note)) {
              for (const part of splitTop(note, ';')) {
                const resp = /^responses? adds?\s+(.*)$/i.exec(part);
                const body = (resp?.[1] ?? part).replace(/^request:\s*/i, '');
                for (const a of parseAttrList(body, !!resp)) addField(sec, 'table', { ...a, name: `${name}.${a.name}` });
              }
            }
          }
        }
      } else if (col('parameter') >= 0 && col('type') >= 0) {
        for (const r of rows) for (const name of r[col('parameter')].split(/,\s*/)) addField(sec, 'query', { name, type: canonType(r[col('type')]), raw: r[col('type')] }, { note: r.slice(2).join('; ') });
      } else if (col('code') >= 0) {
        const st = col('status');
        for (const r of rows) {
          const code = r[col('code')];
          doc.errors.push({ id: uniqueId(['error', sectionKey(sec), code].filter(Boolean).join('.')), section: sec, code, status: st >= 0 ? Number(r[st]) : null, meaning: r[header.indexOf('meaning')] ?? '' });
        }
      } else {
        for (const r of rows) {
          const c: Record<string, string> = {};
          header.forEach((name, k) => (c[name] = r[k] ?? ''));
          doc.other.push({ id: uniqueId(`other.${slug(sec)}.${slug(r[0])}`), section: sec, cells: c });
        }
      }
      continue;
    }

    // "Create account payload (shape): `name` string, …": the request attributes of the section's POST
    const payload = /^[A-Z][a-z ]*payload \(shape\):\s*(.*?)(?:\.\s+Response: (.*))?$/.exec(line.trim());
    if (payload) {
      const posts = doc.endpoints.filter((e) => e.section === section() && e.method === 'POST');
      const target = posts.find((e) => /^(create|provision)/i.test(e.note ?? '')) ?? posts[0];
      if (target) {
        target.requestAttrs = parseAttrList(payload[1].replace(/\.$/, ''));
        if (payload[2]) target.note = `${target.note ? `${target.note}; ` : ''}response: ${payload[2]}`;
      }
      continue;
    }

    // an endpoint written in prose: `POST /path…` at the start of a paragraph (or after "Visual search: ")
    const inline = /^(?:[A-Z][a-z ]+:\s*)?`(GET|POST|PUT|PATCH|DELETE) ([^`]+)`[.:,]?\s*(.*)$/.exec(line.trim());
    if (inline && METHODS.includes(inline[1])) {
      const note = inline[3];
      const reqType = /(?:^|, )type `([a-z_]+)`/.exec(note)?.[1];
      const attrs = /attributes (.*)$/.exec(note)?.[1];
      const row = { section: section(), method: inline[1], path: inline[2], ...(reqType ? { requestType: reqType, requestAttrs: attrs ? parseAttrList(attrs) : [] } : {}), note };
      // the same endpoint already in a table: the prose adds its body
      const known = doc.endpoints.find((e) => e.method === row.method && e.path === row.path.split('?')[0]);
      if (known) Object.assign(known, { ...row, section: known.section, path: known.path, note: `${known.note ?? ''}; ${note}` });
      else addEndpoint(row);
      continue;
    }

    // a named body shape in prose: "Request type `x`: …", "Response type `y`: …", "Search response (`y`): …", "- clicks: `click_data` …"
    for (const m of line.matchAll(/(Request|Response) type `([a-z_]+)`:\s*([^.]*(?:\.[^ ][^.]*)*)\.?/g)) doc.shapes.push({ id: uniqueId(`shape.${m[2]}`), section: section(), name: m[2], role: m[1].toLowerCase() as 'request' | 'response', attrs: parseAttrList(m[3]) });
    // "Capabilities object: nine booleans: `can_export_data`, …": fields of the resource's object
    const flags = /^(\w+) object: \w+ booleans: (.*?)\.\s/.exec(line.trim());
    if (flags && proseResource) {
      for (const a of parseAttrList(flags[2])) addField(proseResource, 'table', { name: `${flags[1].toLowerCase()}.${a.name}`, type: 'boolean', raw: 'boolean' });
      continue;
    }

    // "Response `data`: `id` (string), `type` = `agent_context`, attributes …" under a resource's table
    const responseData = /^Response `data`:\s*(.*)$/.exec(line.trim());
    if (responseData) {
      const dataType = /`type` = `([a-z_]+)`/.exec(responseData[1])?.[1];
      const attrs = parseAttrList(responseData[1].replace(/`type` = `[a-z_]+`,?/, '').replace(/attributes /, '').replace(/\.$/, ''));
      doc.shapes.push({ id: uniqueId(`shape.${slug(section())}`), section: section(), name: slug(section()), role: 'response', attrs, ...(dataType ? { dataType } : {}) });
      continue;
    }
    const named = /^Search response \(`([a-z_]+)`\):\s*(.*)$/.exec(line.trim());
    if (named) doc.shapes.push({ id: uniqueId(`shape.${named[1]}`), section: section(), name: named[1], role: 'response', attrs: parseAttrList(named[2].replace(/, and when facets were requested/, ',').replace(/\.$/, '')) });
    const bullet = /^- ([a-z-]+): (`[a-z_]+` .*)$/.exec(line.trim());
    if (bullet && /responses/i.test(section())) {
      doc.shapes.push({ id: uniqueId(`shape.${bullet[1]}`), section: section(), name: bullet[1], role: 'response', attrs: parseAttrList(bullet[2].replace(/\.$/, '')) });
      continue;
    }

    // a resource written as prose under "Resources and their fields"
    if (proseResource && !tableSeen && line.trim() && !/not shown/i.test(line) && !line.startsWith('|')) {
      const dataType = /`data\.type`\s*=\s*`([a-z_]+)`/.exec(line)?.[1];
      for (const sentence of line.trim().split(/\.\s+(?=[A-Z`])/)) {
        const responseOnly = /^(Responses? (carry|adds?)|Response `data`)/.test(sentence);
        const body = sentence
          .replace(/^Response `data`:\s*/, '')
          .replace(/^Responses? (carry|adds?)( computed)?\s*/, '')
          .replace(/`data\.(type|id)`\s*(=|is)?\s*[^;]*;?/g, '')
          .replace(/`type` = `[a-z_]+`,?/g, '')
          .replace(/^\s*attributes\s+/, '')
          .replace(/;\s*attributes\s+/g, '; ')
          .replace(/\.$/, '');
        if (!/`/.test(sentence)) continue;
        for (const a of parseAttrList(body, responseOnly)) addField(proseResource, 'prose', a, dataType ? { dataType } : {});
      }
    }
  }
  return doc;
}
