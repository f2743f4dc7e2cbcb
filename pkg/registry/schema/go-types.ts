// How upstream's JSON decoder (Go's encoding/json, as sigs.k8s.io/json keeps it) names a type error: the Go struct
// holding the field, the field's JSON path from the object's root (no list indexes, no map keys), and the Go type
// the value should have had, all read from the published definitions:
//   json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
import { refName, type Definitions, type Schema } from '../../../api/schema.js';

/** The definition a property schema stands for ($ref, or the allOf wrapper that carries a description). */
const refOf = (s: Schema | undefined): string | undefined => (s ? refName(s) ?? (s.allOf?.length === 1 ? refName(s.allOf[0]!) : undefined) : undefined);

/** io.k8s.api.apps.v1.DeploymentSpec -> DeploymentSpec */
const shortName = (def: string): string => def.slice(def.lastIndexOf('.') + 1);

/** io.k8s.api.core.v1.PodSpec -> v1.PodSpec (package name and type) */
const definitionType = (def: string): string => def.split('.').slice(-2).join('.');

/** Go's Type.String(): v1.PodSpec, []v1.Container, map[string]string, int32, *... never (pointers are looked through). */
export function goTypeName(s: Schema | undefined): string {
  const ref = refOf(s);
  if (ref) return definitionType(ref);
  switch (s?.type) {
    case 'integer': return s.format === 'int32' ? 'int32' : s.format === 'int64' ? 'int64' : 'int';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'string': return s.format === 'byte' ? '[]uint8' : 'string';
    case 'array': return `[]${goTypeName(s.items)}`;
    case 'object':
      if (typeof s.additionalProperties === 'object') return `map[string]${goTypeName(s.additionalProperties)}`;
      return 'map[string]interface {}';
    default: return 'interface {}';
  }
}

export interface GoField {
  /** The struct holding the field ('' at the root). */
  struct: string;
  /** JSON field names from the root, dot-joined. */
  field: string;
  /** The Go type of the value at the path. */
  type: string;
}

/** Walks `path` (JSON pointer segments) down from the definition `root`. */
export function goFieldAt(root: string, path: string[], defs: Definitions): GoField {
  let schema: Schema | undefined = defs[root];
  let current = root;
  let holder = '';
  const fields: string[] = [];
  for (const seg of path.filter((p) => p !== '')) {
    const ref = refOf(schema);
    if (ref) {
      current = ref;
      schema = defs[ref];
    }
    if (!schema) break;
    if (schema.properties && Object.hasOwn(schema.properties, seg)) {
      holder = shortName(current);
      fields.push(seg);
      schema = schema.properties[seg];
    } else if (schema.type === 'array') {
      schema = schema.items;
    } else if (typeof schema.additionalProperties === 'object') {
      schema = schema.additionalProperties;
    } else {
      schema = undefined;
    }
  }
  // the root definition itself is not behind a $ref
  return { struct: holder, field: fields.join('.'), type: schema === defs[root] ? definitionType(root) : goTypeName(schema) };
}

/** Whether `type` is one of Go's integer types, which the decoder reads with strconv.ParseInt. */
export const isGoInteger = (type: string): boolean => /^u?int(8|16|32|64)?$/.test(type);

const INT32 = 2 ** 31;

/**
 * Whether the decoder takes the number `v` for an integer of `type`: integral, and not overflowing it (an int64 as
 * JSON.parse reads one: its largest, 9223372036854775807, is 2^63 as a double).
 */
export const fitsGoInteger = (v: number, type: string): boolean =>
  Number.isInteger(v) && (type === 'int32' ? v >= -INT32 && v < INT32 : v >= -(2 ** 63) && v <= 2 ** 63);

/** A number as its JSON literal would read: an integer in digits however large (1e+21 was written 1000...). */
const numberLiteral = (v: number): string => (Number.isInteger(v) ? BigInt(v).toString() : String(v));

/** Go's literal kinds in an UnmarshalTypeError ("number 1.5" for a fraction into an integer, or one it overflows). */
export const jsonValueKind = (v: unknown, into: string): string => {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return isGoInteger(into) && !fitsGoInteger(v, into) ? `number ${numberLiteral(v)}` : 'number';
  if (typeof v === 'boolean') return 'bool';
  return v === null ? 'null' : typeof v;
};

/**
 * The whole message, as UnmarshalTypeError.Error() words it; `literal`, a number as the body wrote it (2.0), is what
 * Go quotes of a number an integer field refuses.
 */
export function unmarshalTypeError(value: unknown, at: GoField, literal?: string): string {
  const kind = literal === undefined ? jsonValueKind(value, at.type) : `number ${literal}`;
  return at.struct || at.field
    ? `json: cannot unmarshal ${kind} into Go struct field ${at.struct}.${at.field} of type ${at.type}`
    : `json: cannot unmarshal ${kind} into Go value of type ${at.type}`;
}
