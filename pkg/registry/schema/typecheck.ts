// JSON type checking with ajv over the published definitions. A wrong JSON type (or a []byte's bad base64) is a decoding
// error upstream (400 BadRequest "... cannot be handled as a Pod: json: cannot unmarshal ..."),
// not a validation error, so that is what we answer. Quantities, times and int-or-strings decode through their own
// UnmarshalJSON, whose error stops Go's decoder where it is, while a wrong type is only noted and decoding goes on:
// the first of those in document order is the error, else the first type error. An integer field refuses a number
// written with a fraction or an exponent (2.0, 1e3), which JSON.parse made an integer of: the body's literals
// (float-literals.ts) are looked up in the definitions.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { propertyOf, REF_PREFIX, refTo, type Definitions, type Schema } from '../../../api/schema.js';
import { StatusError } from '../../apimachinery/errors.js';
import type { FloatLiteral } from '../../apimachinery/float-literals.js';
import { base64CorruptAt, CORRUPT_BASE64, goBase64Error } from '../../apimachinery/go-base64.js';
import { parseQuantity } from '../../apimachinery/quantity.js';
import { parseMetaTime } from '../../apimachinery/time-parse.js';
import { fitsGoInteger, goFieldAt, isGoInteger, jsonValueKind, unmarshalTypeError, type GoField } from './go-types.js';
import { isPlainObject, MICRO_TIME, QUANTITY, TIME, type Resolved, type SchemaIndex } from './index.js';

/**
 * A body the decoder refuses: 400 "<Kind> in version "<v>" cannot be handled as a <Kind>: <error>", as upstream's
 * transformDecodeError words it. `decoderError` is the decoder's own text, which a patch reports its own way.
 */
export class DecodeError extends StatusError {
  constructor(readonly decoderError: string, kind: string, version: string) {
    super(400, 'BadRequest', `${kind} in version "${version}" cannot be handled as a ${kind}: ${decoderError}`);
  }

  /** The error as runtime's unstructured converter words it: it decodes a []byte's string as JSON again. */
  get converterError(): string {
    return this.decoderError.startsWith(CORRUPT_BASE64) ? `error decoding from json: ${this.decoderError}` : this.decoderError;
  }
}

/**
 * The validators compiled from one set of definitions, built on first use, not at start-up: loading every definition
 * into ajv takes tens of milliseconds. Shared by every checker over the same definitions (the several apiservers of
 * one process, as tests and embedders run them), which never change once served.
 */
class Validators {
  private static readonly of = new WeakMap<Definitions, Validators>();
  static for(definitions: Definitions): Validators {
    let v = Validators.of.get(definitions);
    if (!v) Validators.of.set(definitions, (v = new Validators(definitions)));
    return v;
  }

  private ajvInstance: Ajv | undefined;
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(private readonly definitions: Definitions) {}

  private get ajv(): Ajv {
    if (!this.ajvInstance) {
      // strict off: the x-kubernetes-* extensions are annotations, not keywords. Formats are not
      // checked by decoding upstream either (a bad date fails in its own decoder, below). A kind's first
      // write compiles its validator: each shared definition (ObjectMeta, PodSpec) as a function of its own
      // rather than inlined in every kind, and without ajv's code optimization pass, compiles in ~60% of the
      // time (ten kinds of a first start: 270 → 160 ms) and checks as fast.
      this.ajvInstance = new Ajv({ strict: false, validateFormats: false, allErrors: false, verbose: true, inlineRefs: false, code: { optimize: false } });
      // A quantity decodes through its own parser upstream (resource.Quantity's UnmarshalJSON): "abc" is a decode error.
      this.ajvInstance.addKeyword({ keyword: QUANTITY_KEYWORD, errors: false, validate: (_: unknown, data: unknown) => ownError(QUANTITY, data) === undefined });
      // A metav1.Time or MicroTime decodes through time.Parse: "notatime", or a number, is a decode error.
      this.ajvInstance.addKeyword({ keyword: TIME_KEYWORD, errors: false, validate: (name: string, data: unknown) => ownError(name, data) === undefined });
      // An IntOrString decodes anything but a string as an int32 of its own (intstr's UnmarshalJSON).
      this.ajvInstance.addKeyword({ keyword: INT_OR_STRING_KEYWORD, errors: false, validate: (_: unknown, data: unknown) => ownError(INT_OR_STRING, data) === undefined });
      // A []byte decodes a base64 string (encoding/base64's StdEncoding): "s3cr3t!" is an error the decoder saves.
      this.ajvInstance.addKeyword({ keyword: BYTES_KEYWORD, type: 'string', errors: false, validate: (_: unknown, data: string) => base64CorruptAt(data) === undefined });
      this.ajvInstance.addSchema({ $id: 'k8s', components: { schemas: typesOnly(this.definitions) } });
    }
    return this.ajvInstance;
  }

  validatorFor(definition: string): ValidateFunction {
    let v = this.compiled.get(definition);
    if (!v) {
      v = this.ajv.compile({ $ref: `k8s${REF_PREFIX}${definition}` });
      this.compiled.set(definition, v);
    }
    return v;
  }
}

export class TypeChecker {
  private readonly validators: Validators;

  constructor(private readonly index: SchemaIndex) {
    this.validators = Validators.for(index.definitions);
  }

  /**
   * Throws a DecodeError worded like upstream's decoder when `obj` does not have the definition's shape; `floats`:
   * the numbers its JSON wrote with a fraction or an exponent.
   */
  check(obj: unknown, definition: string, kind: string, version: string, floats?: readonly FloatLiteral[]): void {
    const error = this.decodeError(obj, definition, false, floats);
    if (error !== undefined) throw new DecodeError(error, kind, version);
  }

  /**
   * The decoder's own words when `obj` does not have the definition's shape. `sortedKeys`: Go decodes a map it
   * marshaled again (a custom resource's metadata, objectmeta.GetObjectMeta), whose keys json.Marshal sorts.
   */
  decodeError(obj: unknown, definition: string, sortedKeys = false, floats?: readonly FloatLiteral[]): string | undefined {
    const validate = this.validators.validatorFor(definition);
    const valid = validate(obj);
    if (valid && floats === undefined) return undefined;
    const literal = floats && this.literalError(floats, definition);
    if (literal?.own) return literal.message;
    const own = valid ? undefined : firstOwnError(this.index, obj, refTo(definition), sortedKeys);
    if (own !== undefined) return own;
    const typed = valid ? undefined : this.describe(validate.errors?.[0], definition);
    if (!literal || !typed) return (literal ?? typed)?.message;
    return comesFirst(obj, literal.path, typed.path) ? literal.message : typed.message;
  }

  /**
   * The first of `floats` (in document order) in an integer field, Go's saved UnmarshalTypeError, unless one is an
   * IntOrString's, whose own decoder fails there.
   */
  private literalError(floats: readonly FloatLiteral[], definition: string): { path: string[]; message: string; own?: true } | undefined {
    let first: { path: string[]; message: string } | undefined;
    for (const f of floats) {
      const path = f.path.map(String);
      const at = goFieldAt(definition, path, this.index.definitions);
      if (at.type === INT_OR_STRING_TYPE) return { path, message: unmarshalTypeError(undefined, INT32_VALUE, f.text), own: true };
      if (!first && isGoInteger(at.type)) first = { path, message: unmarshalTypeError(undefined, at, f.text) };
    }
    return first;
  }

  private describe(err: ErrorObject | undefined, definition: string): { path: string[]; message: string } {
    if (!err) return { path: [], message: 'invalid object' };
    const path = err.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    // an int32 past its range is Go's OverflowInt, a type error
    if (err.keyword === 'type' || err.keyword === 'minimum' || err.keyword === 'maximum') {
      return { path, message: unmarshalTypeError(err.data, goFieldAt(definition, path, this.index.definitions)) };
    }
    const base64 = err.keyword === BYTES_KEYWORD ? goBase64Error(String(err.data)) : undefined;
    if (base64) return { path, message: base64 };
    const field = path.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '');
    if (err.keyword === 'enum') return { path, message: `${field}: Unsupported value: ${JSON.stringify(err.data)}` };
    return { path, message: `${field ? `${field}: ` : ''}${err.message ?? 'invalid value'}` };
  }
}

/** Whether the value at `a` comes before the one at `b` in the JSON `obj` was parsed from, whose key order it keeps. */
function comesFirst(obj: unknown, a: readonly string[], b: readonly string[]): boolean {
  let v = obj;
  for (let i = 0; i < a.length && i < b.length; i++) {
    if (a[i] !== b[i]) {
      if (Array.isArray(v)) return Number(a[i]) < Number(b[i]);
      const keys = isPlainObject(v) ? Object.keys(v) : [];
      return keys.indexOf(a[i]!) < keys.indexOf(b[i]!);
    }
    v = isPlainObject(v) || Array.isArray(v) ? (v as Record<string, unknown>)[a[i]!] : undefined;
  }
  // one holds the other, which Go skips once the holder is of the wrong type
  return a.length <= b.length;
}

const QUANTITY_KEYWORD = 'x-quantity';
const TIME_KEYWORD = 'x-go-time';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const INT_OR_STRING_KEYWORD = 'x-int-or-string';
/** How go-types.ts names the IntOrString type. */
const INT_OR_STRING_TYPE = 'intstr.IntOrString';
/** What IntOrString's UnmarshalJSON decodes a number into: no struct field to name. */
const INT32_VALUE: GoField = { struct: '', field: '', type: 'int32' };
const BYTES_KEYWORD = 'x-go-bytes';
const QUESTION = 'own-decoder';

const ownDecoder = (r: Resolved): boolean => r.name === QUANTITY || r.name === TIME || r.name === MICRO_TIME || r.name === INT_OR_STRING;

/** The error of the UnmarshalJSON of the definition `name` (a quantity, a time or an int-or-string) for `data`, if any. */
function ownError(name: string, data: unknown): string | undefined {
  if (data === null) return undefined;
  if (name === INT_OR_STRING) {
    if (typeof data === 'string' || (typeof data === 'number' && fitsGoInteger(data, 'int32'))) return undefined;
    return unmarshalTypeError(data, INT32_VALUE);
  }
  if (name === QUANTITY) {
    if (typeof data !== 'string') return undefined;
    try { parseQuantity(data); return undefined; } catch (e) { return (e as Error).message; }
  }
  // metav1.Time reads the JSON into a Go string first: anything else fails there, named by no struct field
  if (typeof data !== 'string') return `json: cannot unmarshal ${jsonValueKind(data, 'string')} into Go value of type string`;
  const t = parseMetaTime(data, name === MICRO_TIME);
  return typeof t === 'string' ? t : undefined;
}

/**
 * The first value in document order whose own decoder fails. Go's decoder skips a value of the wrong JSON type
 * without looking inside, so neither is this walk.
 */
function firstOwnError(index: SchemaIndex, value: unknown, schema: Schema, sortedKeys: boolean): string | undefined {
  if (!index.anyBelow(schema, QUESTION, ownDecoder)) return undefined;
  const r = index.resolve(schema);
  if (ownDecoder(r)) return ownError(r.name!, value);
  const s = r.schema;
  if (Array.isArray(value)) {
    if (!s.items) return undefined;
    for (const item of value) {
      const error = firstOwnError(index, item, s.items, sortedKeys);
      if (error) return error;
    }
    return undefined;
  }
  if (!isPlainObject(value) || s.type !== 'object') return undefined;
  const additional = isPlainObject(s.additionalProperties) ? s.additionalProperties as Schema : undefined;
  const entries = Object.entries(value);
  if (sortedKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, v] of entries) {
    const child = propertyOf(s, key) ?? additional;
    const error = child && firstOwnError(index, v, child, sortedKeys);
    if (error) return error;
  }
  return undefined;
}

/**
 * Required fields and enums are validation (422), checked elsewhere; the decoder sees only types (quantities, times,
 * int-or-strings), an integer's range among them (an int64's as JSON.parse reads it: 9223372036854775807 is 2^63).
 */
function typesOnly(defs: Record<string, unknown>): Record<string, unknown> {
  const out = JSON.parse(JSON.stringify(defs), (key, value: unknown) => {
    if (key === 'required' || key === 'enum' || key === 'default') return undefined;
    if (isPlainObject(value) && value.type === 'string' && value.format === 'byte') return { ...value, [BYTES_KEYWORD]: true };
    if (isPlainObject(value) && value.type === 'integer') {
      return value.format === 'int32' ? { ...value, minimum: -(2 ** 31), maximum: 2 ** 31 - 1 } : { ...value, minimum: -(2 ** 63), maximum: 2 ** 63 };
    }
    return value;
  }) as Record<string, Record<string, unknown>>;
  if (out[QUANTITY]) out[QUANTITY] = { ...out[QUANTITY], [QUANTITY_KEYWORD]: true };
  if (out[INT_OR_STRING]) out[INT_OR_STRING] = { [INT_OR_STRING_KEYWORD]: true };
  // Go writes a zero metav1.Time as null (lastProbeTime: null) and reads it back; the keyword checks the rest
  for (const t of [TIME, MICRO_TIME]) {
    if (!out[t]) continue;
    const { type: _, ...rest } = out[t];
    out[t] = { ...rest, [TIME_KEYWORD]: t };
  }
  return out;
}
