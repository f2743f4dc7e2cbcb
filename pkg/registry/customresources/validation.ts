// Schema validation of a custom resource with ajv, errors worded as upstream's (kube-openapi's validator
// through apiextensions' kubeOpenAPIResultToFieldErrors): "spec.replicas: Invalid value: 11: spec.replicas in
// body should be less than or equal to 10", "spec.x: Required value", "spec.color: Unsupported value: ...".
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isIP } from 'node:net';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { tooLong } from '../../apimachinery/field.js';
import { base64CorruptAt } from '../../apimachinery/go-base64.js';
import { goRegExpEngine } from './re2.js';
import { childPath, pointerToPath } from './schema.js';

/** kube-openapi's strfmt IsDate: Go's time.Parse("2006-01-02"), the day within its month (no 2020-02-30). */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/**
 * kube-openapi's strfmt IsDateTime: lower-cased and split at "t", a date, then a time with a zone (the RFC 3339 pattern,
 * "." any character) whose hour, minute and second do not pass 23, 59, 59.
 */
function isDateTime(str: string): boolean {
  if (str.length < 4) return false;
  const parts = str.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1]!);
  return Boolean(m && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59');
}

const FORMATS: Record<string, (s: string) => boolean> = {
  'date-time': isDateTime,
  datetime: isDateTime,
  date: isDate,
  byte: (s) => base64CorruptAt(s) === undefined,
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid3: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid4: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  uuid5: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  email: (s) => /^[^\s@]+@[^\s@]+$/.test(s),
  hostname: (s) => /^(?=.{1,253}$)[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*$/.test(s),
  ipv4: (s) => isIP(s) === 4,
  ipv6: (s) => isIP(s) === 6,
  cidr: (s) => {
    const [ip, bits, extra] = s.split('/');
    const v = isIP(ip ?? '');
    return extra === undefined && v !== 0 && /^\d+$/.test(bits ?? '') && Number(bits) <= (v === 4 ? 32 : 128);
  },
  mac: (s) => /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s),
  uri: (s) => {
    try {
      return Boolean(new URL(s).protocol);
    } catch {
      return false;
    }
  },
  duration: (s) => /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w))+$/.test(s),
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  password: () => true,
};

const DROP = new Set(['description', 'example', 'externalDocs', 'default', 'title', 'id', '$schema', 'nullable', 'format']);

/** The ajv form of a structural schema: draft-4 booleans made draft-7 numbers, int-or-string as a type union. */
export function toAjvSchema(s: JSONSchemaProps): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-kubernetes-') || DROP.has(k)) continue;
    out[k] = v;
  }
  if (s['x-kubernetes-int-or-string']) out.type = ['integer', 'string'];
  if (s.nullable && s.type) out.type = [...(Array.isArray(out.type) ? out.type as string[] : [out.type as string]), 'null'];
  if (s.format && FORMATS[s.format] && (s.type === 'string' || !s.type)) out.format = s.format;
  if (s.exclusiveMaximum === true && s.maximum !== undefined) {
    out.exclusiveMaximum = s.maximum;
    delete out.maximum;
  } else delete out.exclusiveMaximum;
  if (s.exclusiveMinimum === true && s.minimum !== undefined) {
    out.exclusiveMinimum = s.minimum;
    delete out.minimum;
  } else delete out.exclusiveMinimum;
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toAjvSchema(v)]));
  }
  if (typeof s.additionalProperties === 'object') out.additionalProperties = toAjvSchema(s.additionalProperties);
  else if (s.additionalProperties === undefined) delete out.additionalProperties;
  if (s.patternProperties) out.patternProperties = Object.fromEntries(Object.entries(s.patternProperties).map(([k, v]) => [k, toAjvSchema(v)]));
  if (s.items) out.items = Array.isArray(s.items) ? s.items.map((i) => toAjvSchema(i)) : toAjvSchema(s.items);
  if (typeof s.additionalItems === 'object') out.additionalItems = toAjvSchema(s.additionalItems);
  for (const c of ['allOf', 'anyOf', 'oneOf'] as const) if (s[c]) out[c] = s[c]!.map((x) => toAjvSchema(x));
  if (s.not) out.not = toAjvSchema(s.not);
  if (s.definitions) out.definitions = Object.fromEntries(Object.entries(s.definitions).map(([k, v]) => [k, toAjvSchema(v)]));
  if (s.dependencies) {
    out.dependencies = Object.fromEntries(Object.entries(s.dependencies).map(([k, v]) => [k, Array.isArray(v) ? v : toAjvSchema(v)]));
  }
  return out;
}

let shared: Ajv | undefined;
const ajv = (): Ajv => {
  if (!shared) {
    // validateSchema off: upstream takes any number for maxLength, multipleOf and the like (a maxLength of -1
    // refuses every string) where Ajv's meta-schema would refuse to compile the schema at all
    shared = new Ajv({ strict: false, allErrors: true, verbose: true, validateFormats: true, unicodeRegExp: false, validateSchema: false, code: { regExp: goRegExpEngine } });
    for (const [name, check] of Object.entries(FORMATS)) shared.addFormat(name, { type: 'string', validate: check });
  }
  return shared;
};

/** The validator of a kind's schema (of the whole object, metadata included) or of any node of it. */
export function compileValidator(schema: JSONSchemaProps | undefined): ValidateFunction | undefined {
  if (!schema) return undefined;
  return ajv().compile(toAjvSchema(schema));
}

/** Go's %v of a JSON value in a field error ("string" quoted, numbers bare). */
export const goValue = (v: unknown): string =>
  typeof v === 'string' ? JSON.stringify(v) : v === undefined ? '""' : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);

const jsonTypeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

/** Errors inside an anyOf/oneOf/not branch are summed up by that keyword's own error, as upstream's validator does. */
function insideBranch(schemaPath: string): boolean {
  const tokens = schemaPath.split('/');
  for (let i = 1; i < tokens.length - 1; i++) {
    if ((tokens[i] === 'anyOf' || tokens[i] === 'oneOf') && /^\d+$/.test(tokens[i + 1]!) && tokens[i - 1] !== 'properties') return true;
    if (tokens[i] === 'not' && tokens[i - 1] !== 'properties') return true;
  }
  return false;
}

/** Appends a relative field path ("a.b", "[0].c") to `prefix`. */
export const joinPath = (prefix: string, rel: string): string => (!rel ? prefix : !prefix ? rel : rel.startsWith('[') ? `${prefix}${rel}` : `${prefix}.${rel}`);

function causeOf(e: ErrorObject, prefix: string, namePrefix: string): StatusCause | undefined {
  const rel = pointerToPath(e.instancePath);
  const path = joinPath(prefix, rel);
  const name = joinPath(namePrefix, rel) || '.';
  const params = e.params as Record<string, any>;
  const invalid = (msg: string) => fieldCause('FieldValueInvalid', path, `Invalid value: ${goValue(e.data)}: ${name} in body ${msg}`);
  switch (e.keyword) {
    case 'required':
      return fieldCause('FieldValueRequired', childPath(path, String(params.missingProperty)), 'Required value');
    case 'type': {
      const actual = jsonTypeOf(e.data);
      const want = Array.isArray(params.type) ? (params.type as string[]).filter((t) => t !== 'null').join(',') : String(params.type);
      return fieldCause('FieldValueTypeInvalid', path, `Invalid value: "${actual}": ${name} in body must be of type ${want}: "${actual}"`);
    }
    case 'enum': {
      const values = (params.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)));
      return fieldCause('FieldValueNotSupported', path, `Unsupported value: ${goValue(e.data)}: supported values: ${values.join(', ')}`);
    }
    case 'maxLength': {
      return tooLong(path, Number(params.limit));
    }
    case 'maxItems':
      return { reason: 'FieldValueTooMany', field: path, message: `Too many: ${(e.data as unknown[]).length}: must have at most ${params.limit} items` };
    case 'maxProperties':
      return { reason: 'FieldValueTooMany', field: path, message: `Too many: ${Object.keys(e.data as object).length}: must have at most ${params.limit} items` };
    case 'maximum':
      return invalid(`should be less than or equal to ${params.limit}`);
    case 'exclusiveMaximum':
      return invalid(`should be less than ${params.limit}`);
    case 'minimum':
      return invalid(`should be greater than or equal to ${params.limit}`);
    case 'exclusiveMinimum':
      return invalid(`should be greater than ${params.limit}`);
    case 'minLength':
      return invalid(`should be at least ${params.limit} chars long`);
    case 'pattern':
      return invalid(`should match '${params.pattern}'`);
    case 'minItems':
      return invalid(`should have at least ${params.limit} items`);
    case 'minProperties':
      return invalid(`should have at least ${params.limit} properties`);
    case 'uniqueItems':
      return invalid(`shouldn't contain duplicates`);
    case 'multipleOf':
      return invalid(`should be a multiple of ${params.multipleOf}`);
    case 'format':
      return fieldCause('FieldValueTypeInvalid', path, `Invalid value: ${goValue(e.data)}: ${name} in body must be of type ${params.format}: ${goValue(e.data)}`);
    case 'oneOf':
      return invalid('must validate one and only one schema (oneOf)');
    case 'anyOf':
      return invalid('must validate at least one schema (anyOf)');
    case 'allOf':
      return invalid('must validate all the schemas (allOf)');
    case 'not':
      return invalid('must not validate the schema (not)');
    case 'additionalProperties':
      return fieldCause('FieldValueForbidden', childPath(path, String(params.additionalProperty)), 'Forbidden: field not declared in schema');
    default:
      return invalid(e.message ?? 'is invalid');
  }
}

export interface SchemaValidationOptions {
  /** What messages name paths from ("replicas in body" of a status validated alone); the field prefix unless given. */
  namePrefix?: string;
  /** Errors left out (ratcheted ones). */
  drop?: (e: ErrorObject) => boolean;
}

/** The schema's errors for `obj`, under the field path `prefix`. */
export function validateWithSchema(validate: ValidateFunction | undefined, obj: unknown, prefix = '', opts: SchemaValidationOptions = {}): StatusCause[] {
  if (!validate || validate(obj)) return [];
  const seen = new Set<string>();
  const causes: StatusCause[] = [];
  for (const e of validate.errors ?? []) {
    if (insideBranch(e.schemaPath) || opts.drop?.(e)) continue;
    const c = causeOf(e, prefix, opts.namePrefix ?? prefix);
    if (!c) continue;
    const key = `${c.field}\u0000${c.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    causes.push(c);
  }
  return causes;
}
