// Structural schemas (upstream: apiextensions-apiserver pkg/apiserver/schema/validation.go): every specified node
// has a type (or int-or-string / preserve-unknown-fields), value validations (allOf/anyOf/oneOf/not) carry no
// structure of their own and only name fields the structure declares, metadata at the root only restricts name
// and generateName, and no additionalProperties at the root. Errors come back sorted, as upstream sorts them.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/index.js';
import type { StatusCause } from '../../../apimachinery/errors.js';
import { causeToString, forbidden, invalidValue, required } from '../../../apimachinery/field.js';
import { goRegexpError } from '../../../apimachinery/go-regexp.js';
import { keyPath } from './paths.js';

type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** upstream's two int-or-string exceptions: anyOf [{type: integer}, {type: string}], also as allOf[0]. */
const isIntOrStringAnyOf = (anyOf: JSONSchemaProps[] | undefined): boolean =>
  anyOf?.length === 2
  && JSON.stringify(anyOf[0]) === '{"type":"integer"}'
  && JSON.stringify(anyOf[1]) === '{"type":"string"}';

const props = (s: JSONSchemaProps): Array<[string, JSONSchemaProps]> =>
  Object.entries(s.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => (Array.isArray(s.items) ? undefined : s.items);

/** The structural violations of `s` under `path`, sorted by their text as upstream's ValidateStructural. */
export function validateStructural(s: JSONSchemaProps, path: string): StatusCause[] {
  const causes = [...invariants(s, 'root', path), ...completeness(s, path)];
  return causes.sort((a, b) => (causeToString(a) < causeToString(b) ? -1 : causeToString(a) > causeToString(b) ? 1 : 0));
}

function invariants(s: JSONSchemaProps | undefined, lvl: Level, path: string): StatusCause[] {
  if (!s) return [];
  const causes: StatusCause[] = [];
  if (s.type === 'array' && !s.items) causes.push(required(`${path}.items`, 'must be specified'));
  causes.push(...invariants(itemsOf(s), 'item', `${path}.items`));
  for (const [k, v] of props(s)) causes.push(...invariants(v, 'field', keyPath(`${path}.properties`, k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') causes.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') causes.push(...invariants(s.additionalProperties, 'field', `${path}.additionalProperties`));
  }
  if (s['x-kubernetes-int-or-string'] && s['x-kubernetes-preserve-unknown-fields']) {
    causes.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (s['x-kubernetes-int-or-string'] && s['x-kubernetes-embedded-resource']) {
    causes.push(invalidValue(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = Boolean(s.allOf?.length) && isIntOrStringAnyOf(s.allOf![0]!.anyOf);
  causes.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, path));

  const embedded = Boolean(s['x-kubernetes-embedded-resource']);
  if (embedded && s.type !== 'object') {
    causes.push(s.type ? invalidValue(`${path}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true') : required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) {
    causes.push(required(`${path}.type`, EMPTY_TYPE[lvl]));
  }
  if (embedded && s.additionalProperties !== undefined) causes.push(forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && s.type && s.type !== 'object') causes.push(invalidValue(`${path}.type`, s.type, 'must be object at the root'));

  const checkMetadata = lvl === 'root' || embedded;
  for (const k of ['kind', 'apiVersion']) {
    const p = s.properties?.[k];
    if (p && checkMetadata && p.type !== 'string') causes.push(invalidValue(`${keyPath(`${path}.properties`, k)}.type`, p.type ?? '', 'must be string'));
  }
  const metadata = s.properties?.metadata;
  if (metadata) causes.push(...metadataInvariants(metadata, checkMetadata, lvl, keyPath(`${path}.properties`, 'metadata')));
  if (embedded && !s['x-kubernetes-preserve-unknown-fields'] && !Object.keys(s.properties ?? {}).length) {
    causes.push(required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return causes;
}

/** What a root metadata schema may say: type object and the schemas of name and generateName, nothing else. */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (checkMetadata && s.type !== 'object') causes.push(invalidValue(`${path}.type`, s.type ?? '', 'must be object'));
  if (lvl !== 'root') return causes;
  const keys = Object.keys(s.properties ?? {});
  const onlyNames = keys.every((k) => k === 'name' || k === 'generateName');
  const rest = Object.keys(s).filter((k) => !['type', 'default', 'properties'].includes(k) && (s as Record<string, unknown>)[k] !== undefined);
  if (!onlyNames || rest.length > 0) {
    causes.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  return causes;
}

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((v, i) => causes.push(...nested(v, false, lvl, `${path}.anyOf[${i}]`)));
  (s.allOf ?? []).forEach((v, i) => causes.push(...nested(v, skipFirstAllOfAnyOf && i === 0, lvl, `${path}.allOf[${i}]`)));
  (s.oneOf ?? []).forEach((v, i) => causes.push(...nested(v, false, lvl, `${path}.oneOf[${i}]`)));
  if (s.not) causes.push(...nested(s.not, false, lvl, `${path}.not`));
  const patternError = s.pattern ? goRegexpError(s.pattern) : undefined;
  if (patternError) causes.push(invalidValue(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${patternError}`));
  return causes;
}

const NESTED_EMPTY: Array<[keyof JSONSchemaProps, string]> = [
  ['type', 'must be empty to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0);

/** A schema under allOf/anyOf/oneOf/not: value validation only. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, lvl: Level, path: string): StatusCause[] {
  const causes: StatusCause[] = [...valueValidation(v, skipAnyOf, false, lvl, path)];
  const items = itemsOf(v);
  if (items) causes.push(...nested(items, false, lvl, `${path}.items`));
  for (const [k, p] of props(v)) causes.push(...nested(p, false, 'field', keyPath(`${path}.properties`, k)));
  if (v.additionalProperties !== undefined) causes.push(forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  for (const [key, detail] of NESTED_EMPTY) {
    if (isSet(v[key])) causes.push(forbidden(`${path}.${key}`, detail));
  }
  if (v.properties?.metadata) causes.push(forbidden(keyPath(`${path}.properties`, 'metadata'), 'must not be specified in a nested context'));
  return causes;
}

/** Every field or items a value validation names must also be specified by the structure around it. */
function completeness(s: JSONSchemaProps | undefined, path: string): StatusCause[] {
  if (!s) return [];
  const causes: StatusCause[] = [...completeness(itemsOf(s), `${path}.items`)];
  for (const [k, v] of props(s)) causes.push(...completeness(v, keyPath(`${path}.properties`, k)));
  causes.push(...valueCompleteness(s, s, path, path));
  return causes;
}

function valueCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (v.not) causes.push(...nestedCompleteness(v.not, s, sPath, `${vPath}.not`));
  (v.allOf ?? []).forEach((x, i) => causes.push(...nestedCompleteness(x, s, sPath, `${vPath}.allOf[${i}]`)));
  (v.anyOf ?? []).forEach((x, i) => causes.push(...nestedCompleteness(x, s, sPath, `${vPath}.anyOf[${i}]`)));
  (v.oneOf ?? []).forEach((x, i) => causes.push(...nestedCompleteness(x, s, sPath, `${vPath}.oneOf[${i}]`)));
  return causes;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): StatusCause[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const causes = valueCompleteness(v, s, sPath, vPath);
  const vItems = itemsOf(v);
  if (vItems) causes.push(...nestedCompleteness(vItems, itemsOf(s), `${sPath}.items`, `${vPath}.items`));
  for (const [k, vf] of props(v)) {
    const sf = s.properties?.[k];
    if (!sf) causes.push(required(keyPath(`${sPath}.properties`, k), `because it is defined in ${keyPath(`${vPath}.properties`, k)}`));
    else causes.push(...nestedCompleteness(vf, sf, keyPath(`${sPath}.properties`, k), keyPath(`${vPath}.properties`, k)));
  }
  return causes;
}
