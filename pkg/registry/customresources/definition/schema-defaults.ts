// Defaults in a CRD schema must be values the schema accepts (upstream: apiextensions-apiserver
// pkg/apiserver/schema/defaulting/validation.go): pruning must not change them, they validate against the schema
// of their node (errors under "<node>.default"), and the node's CEL rules hold for them.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/index.js';
import type { StatusCause } from '../../../apimachinery/errors.js';
import { invalidValue } from '../../../apimachinery/field.js';
import { SchemaIndex } from '../../schema/index.js';
import { validateRules } from '../cel.js';
import { pruneCustomResource } from '../prune.js';
import { compileValidator, joinPath, validateWithSchema } from '../validation.js';
import { keyPath } from './paths.js';

const NO_DEFINITIONS = new SchemaIndex({});

export function validateDefaults(s: JSONSchemaProps, path: string, requirePruned: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  walk(s, path, true, false, requirePruned, causes);
  return causes;
}

function walk(s: JSONSchemaProps, path: string, isResourceRoot: boolean, insideMeta: boolean, requirePruned: boolean, causes: StatusCause[]): void {
  if (s.default !== undefined && !insideMeta) causes.push(...checkDefault(s, path, requirePruned));
  for (const [k, p] of Object.entries(s.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const meta = isResourceRoot && k === 'metadata';
    walk(p, keyPath(`${path}.properties`, k), Boolean(p['x-kubernetes-embedded-resource']), insideMeta || meta, requirePruned, causes);
  }
  if (s.items && !Array.isArray(s.items)) walk(s.items, `${path}.items`, Boolean(s.items['x-kubernetes-embedded-resource']), insideMeta, requirePruned, causes);
  if (typeof s.additionalProperties === 'object') {
    walk(s.additionalProperties, `${path}.additionalProperties`, Boolean(s.additionalProperties['x-kubernetes-embedded-resource']), insideMeta, requirePruned, causes);
  }
}

function checkDefault(s: JSONSchemaProps, path: string, requirePruned: boolean): StatusCause[] {
  const at = `${path}.default`;
  const causes: StatusCause[] = [];
  if (requirePruned && s.default !== null && typeof s.default === 'object') {
    const pruned = structuredClone(s.default);
    pruneCustomResource(NO_DEFINITIONS, pruned, s, Boolean(s['x-kubernetes-embedded-resource']));
    if (JSON.stringify(pruned) !== JSON.stringify(s.default)) causes.push(invalidValue(at, s.default, 'must not have unknown fields'));
  }
  // A schema that cannot be compiled (a type no validator knows) or a rule that does not compile is the default's
  // error here, as upstream's validator reports it; the schema checks name the faulty keyword too.
  let schemaErrors: StatusCause[];
  try {
    schemaErrors = validateWithSchema(compileValidator(s), s.default, at);
  } catch (err) {
    return [...causes, invalidValue(at, s.default, (err as Error).message)];
  }
  if (schemaErrors.length) return [...causes, ...schemaErrors];
  try {
    const ruleErrors = validateRules(s.default, undefined, s).map((c) => ({ ...c, field: joinPath(at, c.field ?? '') }));
    return [...causes, ...ruleErrors];
  } catch (err) {
    return [...causes, invalidValue(at, s.type ?? 'object', `rule compile error: compilation failed: ${(err as Error).message}`)];
  }
}
