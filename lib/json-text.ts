// Scanning JSON text without parsing it: where a string ends, and the texts of an array's elements
// as they are written. Strings are skipped whole (their closing quote found by indexOf, escapes
// included), so a scan visits only the text between strings, most of a document body being strings.

/** The index of the quote closing the string whose opening quote is at `open`; -1 when unterminated. */
export function stringEnd(text: string, open: number): number {
  let from = open;
  for (;;) {
    const q = text.indexOf('"', from + 1);
    if (q < 0) return -1;
    // escaped when an odd run of backslashes precedes it
    let b = q - 1;
    while (text.charCodeAt(b) === 92 /* \ */) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    from = q;
  }
}

/**
 * The texts of the elements of the JSON array whose `[` is at `open`, as written there (no
 * whitespace is trimmed: for text JSON.stringify wrote there is none); undefined when no well-formed
 * array is there. Each element of JSON.stringify's text is JSON.stringify of the element parsed from it.
 */
export function arrayElementTexts(text: string, open: number): string[] | undefined {
  if (text.charCodeAt(open) !== 91 /* [ */) return undefined;
  const out: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      if (i < 0) return undefined;
    } else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (depth > 0) depth--;
      else if (c === 125) return undefined;
      else {
        if (i > start || out.length) out.push(text.slice(start, i));
        return out;
      }
    } else if (c === 44 /* , */ && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}
