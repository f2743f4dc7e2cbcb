// YAML request bodies as upstream reads them (sigs.k8s.io/yaml over go-yaml v2): YAML 1.1, so `yes`/`on` are
// booleans, `0644` is octal and `<<` merges, but a timestamp-looking scalar stays the string it is (go-yaml keeps
// it a string when decoding into interface{}).
//
//   parseRequestYaml(text, strict?): unknown   // strict: duplicate keys and YAML warnings are errors
import { parse, type Tags } from 'yaml';

const TIMESTAMP = 'tag:yaml.org,2002:timestamp';
const withoutTimestamps = (tags: Tags): Tags => tags.filter((t) => typeof t === 'string' || t.tag !== TIMESTAMP);

export const parseRequestYaml = (text: string, strict = false): unknown =>
  parse(text, { version: '1.1', customTags: withoutTimestamps, ...(strict ? { strict: true, uniqueKeys: true } : {}) });
