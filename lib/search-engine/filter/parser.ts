// Recursive-descent parser for Meilisearch's filter grammar. Precedence: NOT binds tighter than AND,
// AND tighter than OR; parentheses group. Errors carry the 0-based character position in the string.
//
//   expr      := or
//   or        := and ("OR" and)*
//   and       := not ("AND" not)*
//   not       := "NOT" not | primary
//   primary   := "(" expr ")" | geo | condition
//   geo       := "_geoRadius(" num "," num "," num ")" | "_geoBoundingBox(" "[" num "," num "]" "," "[" num "," num "]" ")"
//   condition := attr ("=" | "!=" | ">" | ">=" | "<" | "<=") value
//              | attr value "TO" value
//              | attr ["NOT"] "IN" "[" value ("," value)* [","] "]"
//              | attr ["NOT"] "EXISTS"
//              | attr "IS" ["NOT"] ("NULL" | "EMPTY")
//   attr, value := bare word | 'single quoted' | "double quoted"  (backslash escapes the quote)
// Keywords are case-insensitive (Meilisearch requires upper case; accepting both costs nothing).
// A value that reads as a number is compared both as a number and as a string (as Meilisearch).
import { lex, syntaxError, type Tok } from './lexer.js';

export interface FilterValue {
  raw: string;
  num: number | null;
  pos: number;
}

export type CmpOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

export type FilterNode =
  | { type: 'and' | 'or'; children: FilterNode[] }
  | { type: 'not'; child: FilterNode }
  | { type: 'cmp'; attr: string; pos: number; op: CmpOp; value: FilterValue }
  | { type: 'range'; attr: string; pos: number; from: FilterValue; to: FilterValue }
  | { type: 'in'; attr: string; pos: number; values: FilterValue[] }
  | { type: 'exists' | 'null' | 'empty'; attr: string; pos: number }
  | { type: 'geoRadius'; pos: number; lat: number; lng: number; radius: number }
  | { type: 'geoBox'; pos: number; lat1: number; lng1: number; lat2: number; lng2: number };

/** Deepest nesting of NOT and parentheses a filter may have: the parser and the evaluator recurse per level,
 *  so an unbounded depth would overflow the stack. Meilisearch bounds it at the same value. */
export const MAX_FILTER_DEPTH = 200;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parse one filter expression; null for an empty one (no filtering). */
export function parseFilter(input: string): FilterNode | null {
  const p = new Parser(lex(input));
  if (p.peek().kind === 'eof') return null;
  const node = p.or();
  const t = p.peek();
  if (t.kind !== 'eof') throw syntaxError(`Expected AND, OR or the end of the filter, found \`${t.text}\``, t.pos);
  return node;
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly toks: Tok[]) {}

  peek(k = 0): Tok {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)];
  }

  private next(): Tok {
    const t = this.peek();
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  private isKw(t: Tok, kw: string): boolean {
    return t.kind === 'word' && t.text.toUpperCase() === kw;
  }

  private expect(kind: Tok['kind'], what: string): Tok {
    const t = this.next();
    if (t.kind !== kind) throw syntaxError(`Expected ${what}, found ${describe(t)}`, t.pos);
    return t;
  }

  or(): FilterNode {
    const children = [this.and()];
    while (this.isKw(this.peek(), 'OR')) {
      this.next();
      children.push(this.and());
    }
    return children.length === 1 ? children[0] : { type: 'or', children };
  }

  private and(): FilterNode {
    const children = [this.not()];
    while (this.isKw(this.peek(), 'AND')) {
      this.next();
      children.push(this.not());
    }
    return children.length === 1 ? children[0] : { type: 'and', children };
  }

  private not(): FilterNode {
    const t = this.peek();
    if (this.isKw(t, 'NOT')) {
      this.next();
      return { type: 'not', child: this.nested(t, () => this.not()) };
    }
    return this.primary();
  }

  /** One level deeper (NOT or a parenthesis), refused past MAX_FILTER_DEPTH. */
  private nested(at: Tok, parse: () => FilterNode): FilterNode {
    if (++this.depth > MAX_FILTER_DEPTH) throw syntaxError(`The filter nests NOT and parentheses deeper than the limit of ${MAX_FILTER_DEPTH} levels`, at.pos);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private primary(): FilterNode {
    const t = this.peek();
    if (t.kind === 'lparen') {
      this.next();
      const inner = this.nested(t, () => this.or());
      this.expect('rparen', '`)`');
      return inner;
    }
    if (t.kind === 'word' && this.peek(1).kind === 'lparen') {
      if (t.text === '_geoRadius') return this.geoRadius();
      if (t.text === '_geoBoundingBox') return this.geoBox();
      if (t.text === '_geoPoint' || t.text === '_geoDistance') throw syntaxError(`\`${t.text}\` is reserved for sorting; filter with _geoRadius or _geoBoundingBox`, t.pos);
    }
    return this.condition();
  }

  private condition(): FilterNode {
    const a = this.next();
    if (a.kind !== 'word' && a.kind !== 'string') throw syntaxError(`Expected an attribute, \`(\` or NOT, found ${describe(a)}`, a.pos);
    const attr = a.text;
    const pos = a.pos;
    const t = this.peek();
    if (t.kind === 'op') {
      this.next();
      const value = this.value();
      const op = t.text as CmpOp;
      if (op !== '=' && op !== '!=' && value.num === null) throw syntaxError(`\`${op}\` compares numbers; \`${value.raw}\` is not a number`, value.pos);
      const node: FilterNode = { type: 'cmp', attr, pos, op: op === '!=' ? '=' : op, value };
      return op === '!=' ? { type: 'not', child: node } : node;
    }
    if (this.isKw(t, 'NOT')) {
      this.next();
      const u = this.next();
      if (this.isKw(u, 'IN')) return { type: 'not', child: { type: 'in', attr, pos, values: this.list() } };
      if (this.isKw(u, 'EXISTS')) return { type: 'not', child: { type: 'exists', attr, pos } };
      throw syntaxError(`Expected IN or EXISTS after NOT, found ${describe(u)}`, u.pos);
    }
    if (this.isKw(t, 'IN')) {
      this.next();
      return { type: 'in', attr, pos, values: this.list() };
    }
    if (this.isKw(t, 'EXISTS')) {
      this.next();
      return { type: 'exists', attr, pos };
    }
    if (this.isKw(t, 'IS')) {
      this.next();
      let negate = false;
      if (this.isKw(this.peek(), 'NOT')) {
        this.next();
        negate = true;
      }
      const u = this.next();
      const kind = this.isKw(u, 'NULL') ? 'null' : this.isKw(u, 'EMPTY') ? 'empty' : null;
      if (!kind) throw syntaxError(`Expected NULL or EMPTY after IS, found ${describe(u)}`, u.pos);
      const node: FilterNode = { type: kind, attr, pos };
      return negate ? { type: 'not', child: node } : node;
    }
    if ((t.kind === 'word' || t.kind === 'string') && this.isKw(this.peek(1), 'TO')) {
      const from = this.value();
      this.next();
      const to = this.value();
      for (const v of [from, to]) if (v.num === null) throw syntaxError(`TO takes numbers; \`${v.raw}\` is not a number`, v.pos);
      return { type: 'range', attr, pos, from, to };
    }
    throw syntaxError(`Expected an operator (=, !=, >, >=, <, <=, TO, IN, NOT IN, EXISTS, NOT EXISTS, IS NULL, IS EMPTY) after \`${attr}\`, found ${describe(t)}`, t.pos);
  }

  private value(): FilterValue {
    const t = this.next();
    if (t.kind !== 'word' && t.kind !== 'string') throw syntaxError(`Expected a value, found ${describe(t)}`, t.pos);
    const num = NUMBER.test(t.text.trim()) ? Number(t.text) : null;
    return { raw: t.text, num: num !== null && Number.isFinite(num) ? num : null, pos: t.pos };
  }

  private list(): FilterValue[] {
    this.expect('lbrack', '`[`');
    const values: FilterValue[] = [];
    while (this.peek().kind !== 'rbrack') {
      values.push(this.value());
      if (this.peek().kind === 'comma') this.next();
      else if (this.peek().kind !== 'rbrack') throw syntaxError(`Expected \`,\` or \`]\`, found ${describe(this.peek())}`, this.peek().pos);
    }
    this.next();
    return values;
  }

  private number(): number {
    const v = this.value();
    if (v.num === null) throw syntaxError(`Expected a number, found \`${v.raw}\``, v.pos);
    return v.num;
  }

  private geoRadius(): FilterNode {
    const pos = this.next().pos;
    this.expect('lparen', '`(`');
    const lat = this.number();
    this.expect('comma', '`,`');
    const lng = this.number();
    this.expect('comma', '`,`');
    const radius = this.number();
    this.expect('rparen', '`)` (_geoRadius takes latitude, longitude, radius in metres)');
    checkLatLng(lat, lng, pos);
    if (radius < 0) throw syntaxError('The _geoRadius radius must be a positive number of metres', pos);
    return { type: 'geoRadius', pos, lat, lng, radius };
  }

  private geoBox(): FilterNode {
    const pos = this.next().pos;
    this.expect('lparen', '`(`');
    const pt = (): [number, number] => {
      this.expect('lbrack', '`[`');
      const lat = this.number();
      this.expect('comma', '`,`');
      const lng = this.number();
      this.expect('rbrack', '`]`');
      checkLatLng(lat, lng, pos);
      return [lat, lng];
    };
    const [lat1, lng1] = pt();
    this.expect('comma', '`,`');
    const [lat2, lng2] = pt();
    this.expect('rparen', '`)`');
    return { type: 'geoBox', pos, lat1, lng1, lat2, lng2 };
  }
}

function checkLatLng(lat: number, lng: number, pos: number): void {
  if (Math.abs(lat) > 90) throw syntaxError(`Latitude must be within [-90, 90], found ${lat}`, pos);
  if (Math.abs(lng) > 180) throw syntaxError(`Longitude must be within [-180, 180], found ${lng}`, pos);
}

function describe(t: Tok): string {
  return t.kind === 'eof' ? 'the end of the filter' : `\`${t.text}\``;
}
