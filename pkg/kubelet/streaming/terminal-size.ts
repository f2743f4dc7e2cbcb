// The resize stream of exec and attach, decoded as upstream's kubelet decodes it (handleResizeEvents in
// cri/streaming/remotecommand): a Go json.Decoder reading one remotecommand.TerminalSize{Width, Height uint16} after
// another. The struct has no JSON tags, so a key matches a field as encoding/json matches it, regardless of case
// (@kubernetes/client-node sends {"height":41,"width":101}); of repeated keys the last wins; null leaves a field
// as it is; unknown keys are skipped. A value Go fails to decode (not an object, a field that is not an unsigned
// integer below 65536, broken JSON) ends the stream: upstream's loop stops at the first error, and no size after it
// is applied.
import type { Readable } from 'node:stream';
import { isJsonSpace, stringEnd } from '../../apimachinery/json-text.js';

export interface TerminalSize { width: number; height: number }

const skipSpace = (text: string, i: number): number => {
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return i;
};

/**
 * The end (exclusive) of the JSON value starting at `i`, or -1 when the text stops before it does. Only the extent
 * is found here; whether the value is well-formed is JSON.parse's to say.
 */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') {
    const q = stringEnd(text, i);
    return q < text.length ? q + 1 : -1;
  }
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j);
      else if (d === '{' || d === '[') depth++;
      else if ((d === '}' || d === ']') && --depth === 0) return j + 1;
    }
    return -1;
  }
  // a number or a literal runs to the next delimiter (a stray delimiter is a value of its own, which JSON.parse refuses)
  for (let j = i; j < text.length; j++) {
    if (isJsonSpace(text.charCodeAt(j)) || '{}[],:"'.includes(text[j]!)) return j === i ? i + 1 : j;
  }
  return -1;
}

/** The members of a well-formed JSON object's text, in the text's order: each key (decoded) and its value's text. */
function members(text: string): [string, string][] {
  const out: [string, string][] = [];
  let i = skipSpace(text, skipSpace(text, 0) + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i) + 1;
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    out.push([key, text.slice(start, end)]);
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return out;
}

/** encoding/json's field match for a struct whose fields differ by more than case: ASCII case folded (no 'k' or 's' in these names). */
const FIELDS: [RegExp, keyof TerminalSize][] = [[/^width$/i, 'width'], [/^height$/i, 'height']];

/** One JSON value decoded into a zero TerminalSize as encoding/json would, or undefined where Go returns an error. */
export function decodeTerminalSize(text: string): TerminalSize | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const size: TerminalSize = { width: 0, height: 0 };
  if (value === null) return size;
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  // Go keeps decoding after a field's type error and reports it at the end: the value as a whole fails.
  let ok = true;
  for (const [key, raw] of members(text)) {
    const field = FIELDS.find(([re]) => re.test(key))?.[1];
    if (!field || raw === 'null') continue;
    // strconv.ParseUint, then the uint16 overflow check: no sign, fraction or exponent
    if (/^\d+$/.test(raw) && Number(raw) <= 0xffff) size[field] = Number(raw);
    else ok = false;
  }
  return ok ? size : undefined;
}

/** Calls `apply` with each size the stream carries, as soon as its value is complete, up to the first that fails. */
export function readTerminalSizes(from: Readable, apply: (size: TerminalSize) => void): void {
  let pending = '';
  let failed = false;
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    // after a failure the stream is only drained
    if (failed) return;
    pending += chunk;
    for (;;) {
      const start = skipSpace(pending, 0);
      const end = start < pending.length ? valueEnd(pending, start) : -1;
      if (end < 0) { pending = pending.slice(start); return; }
      const size = decodeTerminalSize(pending.slice(start, end));
      pending = pending.slice(end);
      if (!size) { failed = true; pending = ''; return; }
      apply(size);
    }
  });
}
