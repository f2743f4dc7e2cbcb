// Scanning JSON text without parsing it: the character codes that matter and the end of a string, for the passes
// that look at a document's structure before (or instead of) JSON.parse.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACE = 0x7d;
export const CLOSE_BRACKET = 0x5d;

/** Index of the quote closing the string whose opening quote is at `i` (the text's length if unterminated). */
export function stringEnd(text: string, i: number): number {
  for (;;) {
    const q = text.indexOf('"', i + 1);
    if (q < 0) return text.length;
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    // an even run of backslashes escapes only itself
    if ((q - 1 - b) % 2 === 0) return q;
    i = q;
  }
}

export const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
