// YAML as Kubernetes speaks it (sigs.k8s.io/yaml over go-yaml v2): YAML 1.1, so `yes`/`on` are booleans, `0644` is
// octal and `<<` merges, but a timestamp-looking scalar stays the string it is (go-yaml keeps it a string when
// decoding into interface{}). Written the same way, a string that YAML 1.1 would read as something else is quoted
// (`"y"`, `"on"`, `"0644"`), so a YAML 1.1 reader (kube-apiserver, PyYAML) gets it back as the string it is.
//
//   parseYaml(text, strict?): unknown   // strict: duplicate keys and YAML warnings are errors
//   stringifyYaml(value): string
import { parse, stringify, type Tags } from 'yaml';

const TIMESTAMP = 'tag:yaml.org,2002:timestamp';
const withoutTimestamps = (tags: Tags): Tags => tags.filter((t) => typeof t === 'string' || t.tag !== TIMESTAMP);

export const parseYaml = (text: string, strict = false): unknown =>
  parse(text, { version: '1.1', customTags: withoutTimestamps, ...(strict ? { strict: true, uniqueKeys: true } : {}) });

/** In go-yaml's layout too: keys sorted (it marshals maps), list items not indented under their key. */
export const stringifyYaml = (value: unknown): string => stringify(value, { version: '1.1', sortMapEntries: true, indentSeq: false });
