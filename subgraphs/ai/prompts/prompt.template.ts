// The placeholder grammar of prompts (ai.md, Prompts), pure: no GraphQL, no database.
//
//   {{ path ( | transform )* }}
//   path      = name ( "." field | "[" index "]" )*        e.g. user.email, items[0], steps[0].title
//   transform = bullets | numbered | join:<separator> | length | first | last | field:<name>
//
// Transforms apply left to right. A final array is joined by newlines, an object is written as
// JSON, a number or boolean as text. A missing value is a MissingPlaceholder naming the whole path;
// an unknown transform or one applied to the wrong kind of value is a TemplateError.

export type Value = string | number | boolean | null | Value[] | { [k: string]: Value };

export class MissingPlaceholder extends Error {
  constructor(readonly placeholder: string) {
    super(`placeholder "${placeholder}" has no value`);
  }
}

export class TemplateError extends Error {
  constructor(message: string, readonly placeholder: string) {
    super(message);
  }
}

interface Segment {
  field?: string;
  index?: number;
}

interface Placeholder {
  /** the expression between the braces, as written (trimmed) */
  raw: string;
  path: string;
  root: string;
  segments: Segment[];
  transforms: string[];
}

const PLACEHOLDER = /\{\{([\s\S]*?)\}\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*/;

/** The placeholders of a template, in order of first appearance (their root names). */
export function placeholderNames(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) names.add(parse(m[1]).root);
  return [...names];
}

const TRANSFORMS = ['bullets', 'numbered', 'join', 'length', 'first', 'last', 'field'];

/** Checks every placeholder's syntax and transforms without values (a TemplateError names the first bad one). */
export function validateTemplate(template: string): void {
  for (const m of template.matchAll(PLACEHOLDER)) {
    const p = parse(m[1]);
    for (const t of p.transforms) {
      const colon = t.indexOf(':');
      const name = (colon < 0 ? t : t.slice(0, colon)).trim();
      if (!TRANSFORMS.includes(name)) throw new TemplateError(`"{{${p.raw}}}": unknown transform "${name}" (bullets, numbered, join:<separator>, length, first, last, field:<name>)`, p.path);
      if ((name === 'join' || name === 'field') && (colon < 0 || (name === 'field' && !t.slice(colon + 1).trim()))) {
        throw new TemplateError(`"{{${p.raw}}}": ${name} needs an argument (${name}:<${name === 'join' ? 'separator' : 'name'}>)`, p.path);
      }
    }
  }
}

/** Renders `template`; `used` lists each root placeholder name that was substituted, once, in order. */
export function render(template: string, values: Record<string, Value>): { text: string; used: string[] } {
  const used = new Set<string>();
  const text = template.replace(PLACEHOLDER, (_m, expr: string) => {
    const p = parse(expr);
    let v = lookup(values, p);
    for (const t of p.transforms) v = transform(v, t, p);
    used.add(p.root);
    return stringify(v);
  });
  return { text, used: [...used] };
}

function parse(expr: string): Placeholder {
  const [head, ...transforms] = expr.split('|');
  const path = head.trim();
  const m = NAME.exec(path);
  if (!m) throw new TemplateError(`"{{${expr}}}" does not start with a placeholder name`, path);
  const segments: Segment[] = [];
  let rest = path.slice(m[0].length);
  while (rest) {
    const f = /^\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(rest);
    const i = /^\[\s*(\d+)\s*\]/.exec(rest);
    if (f) segments.push({ field: f[1] });
    else if (i) segments.push({ index: Number(i[1]) });
    else throw new TemplateError(`"{{${expr}}}": cannot read "${rest}" (use .field or [index])`, path);
    rest = rest.slice((f ?? i)![0].length);
  }
  // the transform keeps its argument as written (a join separator may be a space); only the name is trimmed
  return { raw: expr.trim(), path, root: m[0], segments, transforms: transforms.map((t) => t.replace(/^\s+/, '')) };
}

function lookup(values: Record<string, Value>, p: Placeholder): Value {
  if (!Object.prototype.hasOwnProperty.call(values, p.root) || values[p.root] === undefined) throw new MissingPlaceholder(p.root);
  let v: Value | undefined = values[p.root];
  let at = p.root;
  for (const s of p.segments) {
    if (s.field !== undefined) {
      at += `.${s.field}`;
      v = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, s.field) ? v[s.field] : undefined;
    } else {
      at += `[${s.index}]`;
      v = Array.isArray(v) ? v[s.index!] : undefined;
    }
    if (v === undefined) throw new MissingPlaceholder(at);
  }
  return v as Value;
}

function transform(v: Value, t: string, p: Placeholder): Value {
  const colon = t.indexOf(':');
  const name = (colon < 0 ? t : t.slice(0, colon)).trim();
  const arg = colon < 0 ? undefined : t.slice(colon + 1);
  const list = (): Value[] => (Array.isArray(v) ? v : [v]);
  switch (name) {
    case 'bullets':
      return list().map((x) => `- ${stringify(x)}`).join('\n');
    case 'numbered':
      return list().map((x, i) => `${i + 1}. ${stringify(x)}`).join('\n');
    case 'join':
      if (arg === undefined) throw new TemplateError(`"{{${p.raw}}}": join needs a separator (join:<separator>)`, p.path);
      return list().map(stringify).join(unescape(arg));
    case 'length':
      return Array.isArray(v) ? v.length : typeof v === 'string' ? [...v].length : 1;
    case 'first':
      return list().length ? list()[0] : '';
    case 'last':
      return list().length ? list()[list().length - 1] : '';
    case 'field': {
      const f = arg?.trim();
      if (!f) throw new TemplateError(`"{{${p.raw}}}": field needs a name (field:<name>)`, p.path);
      return list().map((x, i) => {
        if (x === null || typeof x !== 'object' || Array.isArray(x) || !Object.prototype.hasOwnProperty.call(x, f)) throw new MissingPlaceholder(`${p.path}[${i}].${f}`);
        return x[f];
      });
    }
    default:
      throw new TemplateError(`"{{${p.raw}}}": unknown transform "${name}" (bullets, numbered, join:<separator>, length, first, last, field:<name>)`, p.path);
  }
}

function stringify(v: Value): string {
  if (v === null) return '';
  if (Array.isArray(v)) return v.map(stringify).join('\n');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** `\n` and `\t` in a join separator stand for a newline and a tab. */
function unescape(s: string): string {
  return s.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}
