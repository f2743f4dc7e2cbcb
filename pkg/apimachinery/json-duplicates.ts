// Fields a JSON text repeats, found in one pass before JSON.parse, which keeps the last of them and says nothing.
// Upstream's strict decoder (sigs.k8s.io/json) reports each as `duplicate field "spec.template.spec.containers[0].image"`:
// the path of the repetition, keys joined by dots and list items by index. The same pass measures the nesting depth
// (nesting.ts) and notes numbers written with a fraction or an exponent (float-literals.ts), so a body is scanned once.
//
//   scanJson(text, duplicates: boolean): JsonScan | undefined   // undefined: not too deep, nothing repeated, no 2.0
//   fieldOffsets(text): Map<path, offset>                       // where each field first appears (slow; for ordering)
//   floatLiterals(text): FloatLiteral[]                         // where the 2.0s are (slow; only when scanJson saw one)
//
// The pass keeps, per open object, the offsets, lengths and signatures of its keys in typed arrays reused by every
// scan, so a body without duplicates costs no allocation: a key is compared with its siblings of the same signature.
// An object past LINEAR_KEYS keys, or with a key that has escapes, moves to a Set of its decoded keys.
import type { FloatLiteral } from './float-literals.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, stringEnd } from './json-text.js';
import { MAX_DEPTH } from './nesting.js';

export interface DuplicateFields {
  /** Paths of the repetitions, in document order, each once (upstream dedupes its strict errors). */
  paths: string[];
  /** Offset of each repetition's key (its opening quote). */
  offsets: number[];
}

export interface JsonScan {
  /** Nested deeper than MAX_DEPTH: refuse it before parsing (nesting.ts). */
  tooDeep: boolean;
  duplicates?: DuplicateFields;
  /** A number is written with a fraction or an exponent (2.0, 1e3): floatLiterals() says where. */
  floats?: true;
}

/** Upstream stops recording strict errors at 100. */
const MAX_REPORTED = 100;
/** Keys of one object compared pairwise; past this, a Set. */
const LINEAR_KEYS = 32;

const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const UPPER_E = 0x45;
const LOWER_E = 0x65;

const OBJECT = 1;
const ARRAY = 2;
const TOO_DEEP: JsonScan = Object.freeze({ tooDeep: true });

// The scratch state of a scan, reused: index d describes the d-th open container (1 = outermost).
const kind = new Uint8Array(MAX_DEPTH + 2);
/** Objects: index of their first key in the key arrays. */
const firstKey = new Int32Array(MAX_DEPTH + 2);
/** Objects: offset of their current key's text (for paths); arrays: the current item's index. */
const current = new Int32Array(MAX_DEPTH + 2);
/** Objects whose keys are in `sets` rather than the key arrays. */
const inSet = new Uint8Array(MAX_DEPTH + 2);
const sets: (Set<string> | undefined)[] = [];
let keyStart = new Int32Array(256);
let keyLength = new Int32Array(256);
let keySignature = new Int32Array(256);

function growKeys(): void {
  const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
    const b = new Int32Array(a.length * 2);
    b.set(a);
    return b;
  };
  keyStart = grow(keyStart);
  keyLength = grow(keyLength);
  keySignature = grow(keySignature);
}

/** The key whose text is text[start, end): decoded only when it has escapes (a bad escape, which JSON.parse refuses next, kept as written). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** The keys and indexes down to the current key or item of the innermost open container. */
function segmentsAt(text: string, depth: number): (string | number)[] {
  const segments: (string | number)[] = [];
  for (let d = 1; d <= depth; d++) {
    const at = current[d]!;
    segments.push(kind[d] === ARRAY ? at : keyText(text, at, stringEnd(text, at - 1)));
  }
  return segments;
}

/** The path of the current key of the innermost open object, as upstream's strict errors write it. */
function pathAt(text: string, depth: number): string {
  let path = '';
  for (const s of segmentsAt(text, depth)) path = typeof s === 'number' ? `${path}[${s}]` : path === '' ? s : `${path}.${s}`;
  return path;
}

function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

/** Moves the keys of the object at `depth` (none with escapes) into a Set. */
function toSet(text: string, depth: number, top: number): void {
  const set = new Set<string>();
  for (let k = firstKey[depth]!; k < top; k++) set.add(text.slice(keyStart[k], keyStart[k]! + keyLength[k]!));
  sets[depth] = set;
  inSet[depth] = 1;
}

/**
 * One pass over `text`: whether it nests deeper than MAX_DEPTH, whether it writes a number with a fraction or an
 * exponent and, with `duplicates`, the fields it repeats; `offsets` collects where every field first appears, and
 * `floats` (with `duplicates`, which follows the keys) where those numbers are. Text that is not valid JSON gives an
 * answer of no use, never an exception: JSON.parse refuses it next.
 */
function scan(text: string, duplicates: boolean, offsets?: Map<string, number>, floats?: FloatLiteral[]): JsonScan | undefined {
  const n = text.length;
  let depth = 0;
  let top = 0;
  let expectKey = false;
  let found: DuplicateFields | undefined;
  let fraction = false;
  let reported: Set<string> | undefined;
  // the next backslash at or after the current key: a key before it has no escapes (most bodies have none at all)
  let backslash = duplicates ? text.indexOf('\\') : -1;
  if (backslash < 0) backslash = n;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (!expectKey || !duplicates) {
        i = end;
        continue;
      }
      expectKey = false;
      const start = i + 1;
      i = end;
      if (backslash < start) {
        backslash = text.indexOf('\\', start);
        if (backslash < 0) backslash = n;
      }
      const escaped = backslash < end;
      current[depth] = start;
      if (offsets) {
        const path = pathAt(text, depth);
        if (!offsets.has(path)) offsets.set(path, start - 1);
      }
      const length = end - start;
      // siblings are told apart by length, first and last character; the text compares those alike
      const signature = length === 0 ? 0 : (length << 16) ^ (text.charCodeAt(start) << 8) ^ text.charCodeAt(end - 1);
      let repeated = false;
      if (inSet[depth] === 0 && escaped) {
        toSet(text, depth, top);
        top = firstKey[depth]!;
      }
      if (inSet[depth] === 1) {
        const key = escaped ? keyText(text, start, end) : text.slice(start, end);
        const set = sets[depth]!;
        repeated = set.has(key);
        if (!repeated) set.add(key);
      } else {
        const first = firstKey[depth]!;
        for (let k = first; k < top; k++) {
          if (keySignature[k] === signature && keyLength[k] === length && sameText(text, keyStart[k]!, start, length)) {
            repeated = true;
            break;
          }
        }
        if (!repeated) {
          if (top === keyStart.length) growKeys();
          keyStart[top] = start;
          keyLength[top] = length;
          keySignature[top] = signature;
          top++;
          if (top - first > LINEAR_KEYS) {
            toSet(text, depth, top);
            top = first;
          }
        }
      }
      if (repeated) {
        const path = pathAt(text, depth);
        found ??= { paths: [], offsets: [] };
        reported ??= new Set();
        if (!reported.has(path) && found.paths.length < MAX_REPORTED) {
          reported.add(path);
          found.paths.push(path);
          found.offsets.push(start - 1);
        }
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_DEPTH) {
        releaseSets(depth - 1);
        return TOO_DEEP;
      }
      if (c === OPEN_BRACE) {
        kind[depth] = OBJECT;
        firstKey[depth] = top;
        inSet[depth] = 0;
        expectKey = true;
      } else {
        kind[depth] = ARRAY;
        current[depth] = 0;
        expectKey = false;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) continue;
      if (kind[depth] === OBJECT) {
        top = firstKey[depth]!;
        if (inSet[depth] === 1) {
          sets[depth] = undefined;
          inSet[depth] = 0;
        }
      }
      depth--;
      expectKey = false;
    } else if (c === COMMA && depth > 0) {
      if (kind[depth] === OBJECT) expectKey = true;
      else current[depth]!++;
    } else if ((c >= DIGIT_0 && c <= DIGIT_9) || c === MINUS) {
      // a number (outside strings, digits are nothing else): skipped whole, its '.', 'e' or 'E' noted
      let j = i + 1;
      let written = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === DOT || d === LOWER_E || d === UPPER_E) written = true;
        else if ((d < DIGIT_0 || d > DIGIT_9) && d !== PLUS && d !== MINUS) break;
      }
      if (written) {
        fraction = true;
        floats?.push({ path: segmentsAt(text, depth), text: text.slice(i, j) });
      }
      i = j - 1;
    }
  }
  releaseSets(depth);
  if (!found && !fraction) return undefined;
  const result: JsonScan = { tooDeep: false };
  if (found) result.duplicates = found;
  if (fraction) result.floats = true;
  return result;
}

/** An unbalanced text leaves objects open: their Sets go, and the next scan starts clean. */
function releaseSets(depth: number): void {
  for (let d = 1; d <= depth; d++) {
    sets[d] = undefined;
    inSet[d] = 0;
  }
}

/**
 * Whether `text` nests deeper than MAX_DEPTH, whether it writes a number with a fraction or an exponent and, with
 * `duplicates`, the fields it repeats; undefined (and no allocation) for a text within the depth that has neither.
 */
export function scanJson(text: string, duplicates: boolean): JsonScan | undefined {
  return scan(text, duplicates);
}

/** Where the numbers of `text` written with a fraction or an exponent are, in document order (a rare, slower pass). */
export function floatLiterals(text: string): FloatLiteral[] {
  const floats: FloatLiteral[] = [];
  scan(text, true, undefined, floats);
  return floats;
}

/** Where each field of `text` first appears, by path: to put errors about fields in document order (a rare, slower pass). */
export function fieldOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  scan(text, true, offsets);
  return offsets;
}
