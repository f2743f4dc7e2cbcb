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

/**
 * The string value of `metadata.<key>` in an object's JSON text, read without parsing the document (the scan stops
 * there, and servers write metadata first); undefined when the object has no such string.
 */
export function metadataString(text: string, key: string): string | undefined {
  let depth = 0;
  let lastTopKey: string | undefined;
  let inMetadata = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      let colon = end + 1;
      while (isJsonSpace(text.charCodeAt(colon))) colon++;
      if (text.charCodeAt(colon) !== COLON) { i = end; continue; }
      const name = text.slice(i + 1, end);
      if (depth === 1) lastTopKey = name;
      else if (depth === 2 && inMetadata && name === key) {
        let v = colon + 1;
        while (isJsonSpace(text.charCodeAt(v))) v++;
        if (text.charCodeAt(v) !== QUOTE) return undefined;
        const close = stringEnd(text, v);
        return JSON.parse(text.slice(v, close + 1)) as string;
      }
      i = colon;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth === 2) inMetadata = c === OPEN_BRACE && lastTopKey === 'metadata';
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 1 && inMetadata) return undefined;
    }
  }
  return undefined;
}
