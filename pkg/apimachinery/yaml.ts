// YAML as Kubernetes speaks it (sigs.k8s.io/yaml over go-yaml v2): YAML 1.1, so `yes`/`on` are booleans, `0644` is
// octal and `<<` merges, but a timestamp-looking scalar stays the string it is (go-yaml keeps it a string when
// decoding into interface{}). Written the same way, a string that YAML 1.1 would read as something else is quoted
// (`"y"`, `"on"`, `"0644"`), so a YAML 1.1 reader (kube-apiserver, PyYAML) gets it back as the string it is.
//
//   parseYaml(text, strict?): unknown   // strict: duplicate keys and YAML warnings are errors
//   parseYamlBody(text, duplicates): { value, duplicates }   // a repeated key's last value wins; its line reported
//   stringifyYaml(value): string
import { isMap, isScalar, isSeq, parse, parseDocument, stringify, type Node, type Tags } from 'yaml';

const TIMESTAMP = 'tag:yaml.org,2002:timestamp';
const withoutTimestamps = (tags: Tags): Tags => tags.filter((t) => typeof t === 'string' || t.tag !== TIMESTAMP);

export const parseYaml = (text: string, strict = false): unknown =>
  parse(text, { version: '1.1', customTags: withoutTimestamps, ...(strict ? { strict: true, uniqueKeys: true } : {}) });

/**
 * A request body as the apiserver reads YAML (sigs.k8s.io/yaml over go-yaml v2): a key repeated in a map is no error,
 * its last value wins; with `duplicates`, each repetition is reported as go-yaml's strict decoder words it,
 * `line 12: key "paused" already set in map` (the line of the repeated key's value, 1-based), in its order (a value's
 * own repetitions before its key's). Merge keys (`<<`) and aliases are not looked into.
 */
export function parseYamlBody(text: string, duplicates: boolean): { value: unknown; duplicates: string[] } {
  const doc = parseDocument(text, { version: '1.1', customTags: withoutTimestamps, uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  const found: string[] = [];
  if (duplicates) repeatedKeys(text, doc.contents, found);
  return { value: doc.toJS(), duplicates: found };
}

function repeatedKeys(text: string, node: Node | null | undefined, found: string[]): void {
  if (isSeq(node)) {
    for (const item of node.items) repeatedKeys(text, item as Node, found);
  } else if (isMap(node)) {
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      const value = pair.value as Node | null;
      repeatedKeys(text, value, found);
      const key = pair.key as Node | null;
      if (!isScalar(key) || typeof key.value === 'symbol') continue; // a merge key, or a collection go-yaml refuses
      if (!seen.has(key.value)) seen.add(key.value);
      else found.push(`line ${lineOf(text, (value ?? key).range?.[0] ?? 0)}: key ${goSyntax(key.value)} already set in map`);
    }
  }
}

/** The 1-based line of `offset`, as go-yaml counts them (\n, \r\n or a lone \r ends one). */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) line++;
  }
  return line;
}

/** A decoded YAML key as Go's %#v prints it. */
const goSyntax = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : v === null ? '<nil>' : String(v));

/** In go-yaml's layout too: keys sorted (it marshals maps), list items not indented under their key. */
export const stringifyYaml = (value: unknown): string => stringify(value, { version: '1.1', sortMapEntries: true, indentSeq: false });
