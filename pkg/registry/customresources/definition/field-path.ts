// A rule's fieldPath or a selectable field's jsonPath resolved against the schema (upstream: ValidFieldPath in
// apiextensions-apiserver pkg/apiserver/schema/cel): ".a.b" or "['a.b']" steps through properties and
// additionalProperties; "[0]"-style list steps only where allowed.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/index.js';
import { propertyOf } from '../../../../api/schema.js';

export interface ResolvedPath {
  /** The first step of the path ("spec", "metadata"). */
  root: string;
  /** The path normalized (".a.b"), to detect duplicates written differently. */
  normalized: string;
  schema: JSONSchemaProps;
}

/** Resolves `path` against `s`; a string is the reason it does not resolve. */
export function resolveFieldPath(path: string, s: JSONSchemaProps, opts: { allowBrackets: boolean; allowIndex: boolean }): ResolvedPath | string {
  let i = 0;
  let node = s;
  const steps: string[] = [];
  const step = (key: string): string | undefined => {
    const next = propertyOf(node, key) ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (!next) return `does not refer to a valid field`;
    node = next;
    steps.push(key);
    return undefined;
  };
  if (!path.startsWith('.') && !path.startsWith('[')) return `must start with a '.' or '['`;
  while (i < path.length) {
    if (path[i] === '.') {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(path.slice(i + 1));
      if (!m) return `does not refer to a valid field`;
      const err = step(m[0]);
      if (err) return err;
      i += 1 + m[0].length;
    } else if (path[i] === '[' && path[i + 1] === "'") {
      if (!opts.allowBrackets) return `bracket notation is not allowed`;
      const end = path.indexOf("']", i + 2);
      if (end < 0) return `unterminated string`;
      const err = step(path.slice(i + 2, end));
      if (err) return err;
      i = end + 2;
    } else if (path[i] === '[') {
      const m = /^\[(\d+)\]/.exec(path.slice(i));
      if (!m || !opts.allowIndex || node.type !== 'array' || !node.items || Array.isArray(node.items)) return `does not refer to a valid field`;
      node = node.items;
      steps.push(m[1]!);
      i += m[0].length;
    } else {
      return `does not refer to a valid field`;
    }
  }
  if (!steps.length) return `does not refer to a valid field`;
  return { root: steps[0]!, normalized: steps.map((x) => `.${x}`).join(''), schema: node };
}
