// Filter tokens with their 0-based positions. `<>` is rejected here with its position: Meilisearch's
// inequality is `!=`.
import { EngineError } from '../types.js';

export function syntaxError(message: string, pos: number): EngineError {
  return new EngineError('invalid_filter_syntax', `${message} (at position ${pos})`, 'filter', pos);
}

export interface Tok {
  kind: 'lparen' | 'rparen' | 'lbrack' | 'rbrack' | 'comma' | 'op' | 'word' | 'string' | 'eof';
  text: string;
  pos: number;
}

const PUNCT: Record<string, Tok['kind']> = { '(': 'lparen', ')': 'rparen', '[': 'lbrack', ']': 'rbrack', ',': 'comma' };
/** characters that end a bare word */
const BREAK = /[\s()[\],'"=!<>]/;

export function lex(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (PUNCT[c]) {
      out.push({ kind: PUNCT[c], text: c, pos: i++ });
      continue;
    }
    if (c === '<' && s[i + 1] === '>') throw syntaxError('`<>` is not an operator; use `!=` for "not equal"', i);
    if (c === '<' || c === '>' || c === '!' || c === '=') {
      const two = s.slice(i, i + 2);
      if (two === '<=' || two === '>=' || two === '!=') {
        out.push({ kind: 'op', text: two, pos: i });
        i += 2;
      } else if (c === '!') {
        throw syntaxError('`!` must be followed by `=`', i);
      } else {
        out.push({ kind: 'op', text: c, pos: i++ });
      }
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i++;
      let text = '';
      while (i < s.length && s[i] !== c) {
        if (s[i] === '\\' && i + 1 < s.length) i++;
        text += s[i++];
      }
      if (i >= s.length) throw syntaxError(`Unclosed quote ${c}`, start);
      i++;
      out.push({ kind: 'string', text, pos: start });
      continue;
    }
    const start = i;
    while (i < s.length && !BREAK.test(s[i])) i++;
    out.push({ kind: 'word', text: s.slice(start, i), pos: start });
  }
  out.push({ kind: 'eof', text: '', pos: s.length });
  return out;
}
