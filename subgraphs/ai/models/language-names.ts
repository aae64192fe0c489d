// English names of language codes (Intl.DisplayNames), apart from the identifier (language.ts) so
// that code naming a language (translation.ts, on the AI process's main thread) does not load ELD's
// n-gram tables (~390 MB of RSS) into a thread that never identifies a language.
const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

export function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
