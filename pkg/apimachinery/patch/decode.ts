// Decoding a patch body as upstream's encoding/json would, with Go's wording for the errors clients see.
//
//   decodeJson(body: string | Uint8Array): unknown        // throws BadRequest "invalid character ..."
//   decodeObjectPatch(body): Record<string, unknown>      // a JSON object, or BadRequest as json.Unmarshal into a map
//   decodeApplyPatch(body): Record<string, unknown>       // application/apply-patch+yaml (YAML 1.1, as sigs.k8s.io/yaml)
import { parseYaml } from '../yaml.js';
import { badRequest } from '../errors.js';

const goTypeOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v);

/** Go's encoding/json phrasing of a syntax error, approximated from V8's message. */
const goSyntaxError = (text: string, err: Error): string => {
  if (text.trim() === '' || /end of (JSON )?input|Unterminated/i.test(err.message)) return 'unexpected end of JSON input';
  const m = /position (\d+)/.exec(err.message);
  const ch = m ? text[Number(m[1])] : /Unexpected token '?(.)/.exec(err.message)?.[1];
  return ch ? `invalid character '${ch}' looking for beginning of value` : err.message;
};

export const decodeJson = (body: string | Uint8Array): unknown => {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(goSyntaxError(text, e as Error));
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
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOf(v)} into Go value of type map[string]interface {}`);
  }
  return v as Record<string, unknown>;
};
