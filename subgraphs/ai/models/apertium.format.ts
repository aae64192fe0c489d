// Apertium's plain-text deformatter and reformatter (apertium-destxt, apertium-retxt: what the
// `apertium` script runs around a pair's pipeline for -f txt), in TypeScript. The binaries read
// their input to its end, so they could not stay alive between texts like the pipeline's stages:
// spawning them cost ~20 ms each per call under load. Their behaviour is the lexer Apertium 3.8
// generates from txt-format.xml with deformat.xsl / reformat.xsl; the output is theirs byte for
// byte (test/unit/ai/apertium-format.test.ts runs both on the same inputs), with one deliberate
// difference, said below (blanks over 8,192 characters).

/** txt-format.xml's escape-chars: written with a backslash before them. */
const ESCAPED = new Set(['[', ']', '\\', '/', '@', '<', '>', '^', '$', '{', '}']);
/** txt-format.xml's space-chars: gathered into blanks. */
const SPACES = new Set([' ', '\n', '\t', '\r', '~']);
/** txt-format.xml's one format rule: a paragraph break ends a sentence (eos="yes"). */
const PARAGRAPH = /(?:\n\n|\r\n\r\n)+/y;

/**
 * What `apertium-destxt` prints for `text`: the escape characters backslashed; a run of blanks
 * other than one space wrapped into a superblank `[…]`; `.[]` (an end of sentence the pipeline
 * translates as one) before the blank that follows a paragraph break, and at the end.
 *
 * destxt writes a blank longer than 8,192 characters to a temporary file and prints `[@file]` (retxt
 * copies the file back); this one keeps it inline, which the pipeline passes through alike, so the
 * translation is the same and no file is written.
 */
export function deformatText(text: string): string {
  let out = '';
  let blank = '';
  let endOfSentence = false;
  // printBuffer(): what the lexer writes before any character that is not a blank
  const flush = (): void => {
    if (endOfSentence) out += '.[]';
    endOfSentence = false;
    if (blank.length > 1 || (blank.length === 1 && blank !== ' ')) out += `[${blank}]`;
    else out += blank;
    blank = '';
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '\n' || c === '\r') {
      PARAGRAPH.lastIndex = i;
      const m = PARAGRAPH.exec(text);
      if (m) {
        endOfSentence = true;
        blank += m[0];
        i += m[0].length;
        continue;
      }
    }
    i++;
    if (SPACES.has(c)) {
      blank += c;
      continue;
    }
    flush();
    if (ESCAPED.has(c)) out += `\\${c}`;
    else if (c !== '\0') out += c; // destxt writes characters with fputs: a NUL writes nothing
  }
  endOfSentence = true;
  flush();
  return out;
}

/**
 * What `apertium-retxt` prints for a pipeline's output: superblank brackets and the `.[]` destxt
 * added removed, escaped characters unescaped, everything else as it is.
 *
 * retxt copies a `[@file]` block from the named file (destxt's spill of a long blank); deformatText
 * never makes one and the escaping keeps a text from making one, so one here did not come from us:
 * it is refused rather than read (retxt fails too when the file does not exist).
 */
export function reformatText(piped: string): string {
  let out = '';
  for (let i = 0; i < piped.length; ) {
    const c = piped[i];
    if (c === '[') {
      if (piped[i + 1] === '@') {
        const end = piped.indexOf(']', i + 2);
        if (end > i + 2) throw new Error('the Apertium pipeline answered a [@file] block, which is not read');
      } else if (piped[i + 1] === '\\' && piped[i + 2] === '@') {
        out += '@';
        i += 3;
        continue;
      }
      i++;
    } else if (c === ']') {
      i++;
    } else if (c === '.' && piped[i + 1] === '[' && piped[i + 2] === ']') {
      i += 3;
    } else if (c === '\\' && i + 1 < piped.length && ESCAPED.has(piped[i + 1])) {
      out += piped[i + 1];
      i += 2;
    } else {
      if (c !== '\0') out += c; // written with fputs too: a NUL writes nothing
      i++;
    }
  }
  return out;
}
