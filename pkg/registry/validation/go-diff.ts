// The diff upstream appends to a few "is immutable" messages (cmp.Diff(old, new) of an internal Go struct), in
// go-cmp's shape: the struct's type, each changed field as a `-` line and a `+` line, runs of unchanged fields
// collapsed. go-cmp randomizes its own whitespace so that nothing depends on its exact text; what is kept here is
// what a reader uses: which fields changed, from what to what.
//
//   goStructDiff('core.PersistentVolumeClaimSpec', fields, old, new) ->
//     "  core.PersistentVolumeClaimSpec{\n- \tAccessModes: ...,\n+ \tAccessModes: ...,\n  \t... // 8 identical fields\n  }"
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { goQuote } from './go-values.js';
import { isObj } from './field-checks.js';

/** One field of the Go struct: its Go name, its JSON name, and how go-cmp prints its value. */
export interface GoField {
  name: string;
  json: string;
  render: (v: unknown) => string;
}

/** A string field: "x", and "" when absent. */
export const goString = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');
/** A pointer to a string or a string type: &"x", nil when absent. */
export const goStringPointer = (v: unknown): string => (typeof v === 'string' ? `&${goQuote(v)}` : 'nil');
/** A slice of a string type: []T{"a", "b"}, nil when absent. */
export const goTypedSlice = (type: string) => (v: unknown): string =>
  (Array.isArray(v) ? `[]${type}{${v.map((s) => goQuote(String(s ?? ''))).join(', ')}}` : 'nil');
/** A JSON value in Go's literal syntax, field names capitalized as the Go types name them (readOnly: ReadOnly). */
const goLiteral = (v: unknown): string => {
  if (v === undefined || v === null) return 'nil';
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return `{${v.map(goLiteral).join(', ')}}`;
  if (isObj(v)) return `{${Object.entries(v).map(([k, x]) => `${k.charAt(0).toUpperCase()}${k.slice(1)}: ${goLiteral(x)}`).join(', ')}}`;
  return String(v);
};
/** A struct (`{Path: "/x"}`) or a pointer to one (`&{Path: "/x"}`, nil when absent). */
export const goNested = (pointer: boolean) => (v: unknown): string =>
  (v === undefined || v === null ? (pointer ? 'nil' : '{}') : `${pointer ? '&' : ''}${goLiteral(v)}`);

/** cmp.Diff(before, after) of two values of the struct `type`, whose fields (in Go's order) are `fields`. */
export function goStructDiff(type: string, fields: readonly GoField[], before: Record<string, unknown>, after: Record<string, unknown>): string {
  const lines = [`  ${type}{`];
  let same = 0;
  const flush = (): void => {
    if (same) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`);
    same = 0;
  };
  for (const f of fields) {
    const a = before[f.json];
    const b = after[f.json];
    if (jsonEqual(a ?? null, b ?? null)) {
      same++;
      continue;
    }
    flush();
    lines.push(`- \t${f.name}: ${f.render(a)},`, `+ \t${f.name}: ${f.render(b)},`);
  }
  flush();
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}
