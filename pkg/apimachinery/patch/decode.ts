// Decoding a patch body as upstream's encoding/json would, with Go's wording for the errors clients see.
//
//   decodeJson(body: string | Uint8Array): unknown        // throws BadRequest "invalid character ..."
//   decodeObjectPatch(body): Record<string, unknown>      // a JSON object, or BadRequest as json.Unmarshal into a map
//   decodeApplyPatch(body): Record<string, unknown>       // application/apply-patch+yaml (YAML 1.1, as sigs.k8s.io/yaml)
//   appliedConfiguration(value): Record<string, unknown>  // a decoded apply body as an object, or that BadRequest
import { parseYaml } from '../yaml.js';
import { badRequest } from '../errors.js';
import { goSyntaxError } from '../go-json-syntax.js';

/** encoding/json's name for a JSON value's type in its UnmarshalTypeError. */
const goTypeOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v);

export const decodeJson = (body: string | Uint8Array): unknown => {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(goSyntaxError(text) ?? (e as Error).message);
  }
};

export const decodeObjectPatch = (body: string | Uint8Array): Record<string, unknown> => {
  const v = decodeJson(body);
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw badRequest(`json: cannot unmarshal ${goTypeOf(v)} into Go value of type map[string]interface {}`);
  }
  return v as Record<string, unknown>;
};

export const decodeApplyPatch = (body: string | Uint8Array): Record<string, unknown> => {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  let v: unknown;
  try {
    v = parseYaml(text);
  } catch (e) {
    throw badRequest(`error decoding YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  return appliedConfiguration(v);
};

/** An apply body as upstream's applyPatcher reads it (sigs.k8s.io/yaml into a map): null is empty, a non-object a 400. */
export const appliedConfiguration = (v: unknown): Record<string, unknown> => {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOf(v)} into Go value of type map[string]interface {}`);
  }
  return v as Record<string, unknown>;
};
