// Where the numbers a patch wrote with a fraction or an exponent (float-literals.ts) are in the object it made.
// Upstream's JSON and merge patchers (evanphx/json-patch) carry each value of the patch as its raw bytes into the
// patched JSON, which the decoder of the kind reads again: `"replicas":2.0` reaches an integer field as written and is
// refused there. A merge patch puts each of its values at its own path; a JSON patch's add or replace, at the
// operation's path. A strategic merge patch has none to carry: upstream reads it into a map (2.0 becomes a float64)
// and converts the merged map to the typed object, which takes an integral float for an integer field.
//
//   patchedLiterals(type, patch, patched): FloatLiteral[] | undefined
import { floatLiteralsOf, type FloatLiteral } from '../float-literals.js';
import { unescapeToken } from './json-patch.js';

function valueAt(doc: unknown, path: readonly (string | number)[]): unknown {
  let v = doc;
  for (const s of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[String(s)];
  }
  return v;
}

/** The literal at `path` of `patched`, if the number there is still the one written (a later operation may have changed it). */
function landed(patched: unknown, path: (string | number)[], text: string): FloatLiteral[] {
  return valueAt(patched, path) === Number(text) ? [{ path, text }] : [];
}

/** Where an operation put its value: its path, an array's '-' being the item it appended (the array's last). */
function operationTarget(patched: unknown, pointer: string): (string | number)[] {
  const tokens = pointer.split('/').slice(1).map(unescapeToken);
  if (tokens.at(-1) === '-') {
    const list = valueAt(patched, tokens.slice(0, -1));
    tokens[tokens.length - 1] = String(Array.isArray(list) ? list.length - 1 : '-');
  }
  return tokens;
}

/** The literals of `patch` (a parsed body) where they are in `patched`, what applying it made. */
export function patchedLiterals(type: 'json' | 'merge' | 'strategic', patch: unknown, patched: unknown): FloatLiteral[] | undefined {
  const floats = floatLiteralsOf(patch);
  if (!floats || type === 'strategic') return undefined;
  if (type === 'merge') return floats.flatMap((f) => landed(patched, f.path, f.text));
  const ops = patch as { op?: unknown; path?: unknown }[];
  return floats.flatMap((f) => {
    const [index, key, ...rest] = f.path;
    const op = ops[index as number];
    if (key !== 'value' || (op?.op !== 'add' && op?.op !== 'replace') || typeof op.path !== 'string') return [];
    return landed(patched, [...operationTarget(patched, op.path), ...rest], f.text);
  });
}
