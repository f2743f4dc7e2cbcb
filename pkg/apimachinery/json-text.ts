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
 * The string values of `metadata.<key>` for `keys` in an object's JSON text, read without parsing the document: the
 * scan stops once it has them all or metadata ends (servers write metadata first, and name, namespace, uid and
 * resourceVersion first in it). A key without a string value is left out.
 */
export function metadataStrings<K extends string>(text: string, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  let missing = keys.length;
  let depth = 0;
  let lastTopKey: string | undefined;
  let inMetadata = false;
  for (let i = 0; i < text.length && missing > 0; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      let colon = end + 1;
      while (isJsonSpace(text.charCodeAt(colon))) colon++;
      if (text.charCodeAt(colon) !== COLON) { i = end; continue; }
      const name = text.slice(i + 1, end);
      if (depth === 1) lastTopKey = name;
      else if (depth === 2 && inMetadata && (keys as readonly string[]).includes(name) && out[name as K] === undefined) {
        let v = colon + 1;
        while (isJsonSpace(text.charCodeAt(v))) v++;
        if (text.charCodeAt(v) === QUOTE) {
          const close = stringEnd(text, v);
          out[name as K] = JSON.parse(text.slice(v, close + 1)) as string;
          missing--;
          i = close;
          continue;
        }
      }
      i = colon;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth === 2) inMetadata = c === OPEN_BRACE && lastTopKey === 'metadata';
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 1 && inMetadata) break;
    }
  }
  return out;
}
