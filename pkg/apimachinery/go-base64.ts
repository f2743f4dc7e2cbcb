// Base64 as Go's encoding/base64 StdEncoding reads it: what a []byte field (a Secret's data, a ConfigMap's
// binaryData, a caBundle) and the OpenAPI "byte" format accept. Padding is required, CR and LF are skipped anywhere,
// leftover bits are ignored; anything else stops the decoder at a byte offset its error names.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SYMBOL = new Uint8Array(256);
for (const c of ALPHABET) SYMBOL[c.charCodeAt(0)] = 1;
const PAD = 0x3d; // '='
const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/** The byte offset at which Go's base64.StdEncoding.Decode fails on `text` (UTF-8), or undefined when it decodes. */
export function base64CorruptAt(text: string): number | undefined {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  while (si < src.length) {
    // one quantum of four symbols
    for (let j = 0; j < 4; j++) {
      if (si === src.length) return j === 0 ? undefined : si - j; // ended inside a quantum: padding was required
      const c = src[si++]!;
      if (SYMBOL[c]) continue;
      if (isNewline(c)) { j--; continue; }
      // padding may only follow two or three symbols, and ends the input
      if (c !== PAD || j < 2) return si - 1;
      if (j === 2) {
        while (isNewline(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== PAD) return si - 1;
        si++;
      }
      while (isNewline(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}

/** How Go's base64.CorruptInputError begins. */
export const CORRUPT_BASE64 = 'illegal base64 data at input byte ';

/** Go's base64.CorruptInputError text for `text`, or undefined when it decodes. */
export function goBase64Error(text: string): string | undefined {
  const at = base64CorruptAt(text);
  return at === undefined ? undefined : `${CORRUPT_BASE64}${at}`;
}

/** The standard padded encoding Go writes back for the bytes a valid `text` decodes to. */
export const canonicalBase64 = (text: string): string => Buffer.from(text, 'base64').toString('base64');
