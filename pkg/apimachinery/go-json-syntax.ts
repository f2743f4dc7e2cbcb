// encoding/json's scanner: the error Go's decoder reports for the first bad character of a JSON text, in its words
// ("invalid character 'o' in literal null (expecting 'u')"), which clients and scripts match on.
const NAMED_ESCAPES: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r' };

/**
 * Go's quoteChar: how encoding/json names an unexpected character, strconv.Quote's escapes between single quotes
 * ('\x01', '\n', '\u0081'). The scanner reads bytes: a text read as latin1 holds one character per byte.
 */
const goChar = (c: string): string => {
  const code = c.charCodeAt(0);
  if (c === "'") return "'\\''";
  if (c === '\\') return "'\\\\'";
  if (NAMED_ESCAPES[code]) return `'\\${NAMED_ESCAPES[code]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  if (code >= 0x80 && code < 0xa0) return `'\\u${code.toString(16).padStart(4, '0')}'`;
  return `'${c}'`;
};

class SyntaxErr extends Error {}

/** encoding/json's scanner: the error of the first bad character of `text`, in Go's words, or undefined. */
export function goSyntaxError(text: string): string | undefined {
  let i = 0;
  const bad = (context: string): never => {
    if (i >= text.length) throw new SyntaxErr('unexpected end of JSON input');
    throw new SyntaxErr(`invalid character ${goChar(text[i]!)} ${context}`);
  };
  const ws = (): void => { while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++; };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) bad(`in literal ${word} (expecting ${goChar(word[k]!)})`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) bad('');
      const c = text[i]!;
      if (c === '"') { i++; return; }
      if (c < ' ') bad('in string literal');
      if (c === '\\') {
        i++;
        if (i < text.length && text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) bad('in \\u hexadecimal character escape');
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) bad('in string escape code');
      }
      i++;
    }
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (/[1-9]/.test(text[i] ?? '')) while (/[0-9]/.test(text[i] ?? '')) i++;
    else bad('in numeric literal');
    if (text[i] === '.') { i++; if (!/[0-9]/.test(text[i] ?? '')) bad('after decimal point in numeric literal'); while (/[0-9]/.test(text[i] ?? '')) i++; }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!/[0-9]/.test(text[i] ?? '')) bad('in exponent of numeric literal');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') bad('looking for beginning of object key string');
        string(); ws();
        if (text[i] !== ':') bad('after object key');
        i++; value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        bad('after object key:value pair');
      }
    } else if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        bad('after array element');
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || /[0-9]/.test(c ?? '')) number();
    else bad('looking for beginning of value');
  };
  try {
    value();
    ws();
    if (i < text.length) bad('after top-level value');
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxErr) return err.message;
    throw err;
  }
}
