// JSON type checking with ajv over the published definitions. A wrong JSON type is a decoding
// error upstream (400 BadRequest "... cannot be handled as a Pod: json: cannot unmarshal ..."),
// not a validation error, so that is what we answer.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { REF_PREFIX } from '../../../api/schema.js';
import { badRequest } from '../../apimachinery/errors.js';
import { parseQuantity } from '../../apimachinery/quantity.js';
import { goFieldAt, unmarshalTypeError } from './go-types.js';
import type { SchemaIndex } from './index.js';

export class TypeChecker {
  private ajvInstance: Ajv | undefined;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly index: SchemaIndex) {}

  /** Built on first use, not at start-up: loading every definition into ajv takes tens of milliseconds. */
  private get ajv(): Ajv {
    if (!this.ajvInstance) {
      // strict off: the x-kubernetes-* extensions are annotations, not keywords. Formats are not
      // checked by decoding upstream either (a bad date fails in its own decoder, below). A kind's first
      // write compiles its validator: each shared definition (ObjectMeta, PodSpec) as a function of its own
      // rather than inlined in every kind, and without ajv's code optimization pass, compiles in ~60% of the
      // time (ten kinds of a first start: 270 → 160 ms) and checks as fast.
      this.ajvInstance = new Ajv({ strict: false, validateFormats: false, allErrors: false, verbose: true, inlineRefs: false, code: { optimize: false } });
      // A quantity decodes through its own parser upstream (resource.Quantity's UnmarshalJSON): "abc" is a decode error.
      this.ajvInstance.addKeyword({ keyword: QUANTITY_KEYWORD, errors: false, validate: (_: unknown, data: unknown) => typeof data !== 'string' || isQuantity(data) });
      this.ajvInstance.addSchema({ $id: 'k8s', components: { schemas: typesOnly(this.index.definitions) } });
    }
    return this.ajvInstance;
  }

  private validatorFor(definition: string): ValidateFunction {
    let v = this.compiled.get(definition);
    if (!v) {
      v = this.ajv.compile({ $ref: `k8s${REF_PREFIX}${definition}` });
      this.compiled.set(definition, v);
    }
    return v;
  }

  /** Throws 400 BadRequest worded like upstream's decoder when `obj` does not have the definition's shape. */
  check(obj: unknown, definition: string, kind: string, version: string): void {
    const validate = this.validatorFor(definition);
    if (validate(obj)) return;
    const err = validate.errors?.[0];
    throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${this.describe(err, definition)}`);
  }

  private describe(err: ErrorObject | undefined, definition: string): string {
    if (!err) return 'invalid object';
    const path = err.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (err.keyword === 'type') return unmarshalTypeError(err.data, goFieldAt(definition, path, this.index.definitions));
    const field = path.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '');
    if (err.keyword === QUANTITY_KEYWORD) {
      try { parseQuantity(String(err.data)); } catch (e) { return (e as Error).message; }
    }
    if (err.keyword === 'enum') return `${field}: Unsupported value: ${JSON.stringify(err.data)}`;
    return `${field ? `${field}: ` : ''}${err.message ?? 'invalid value'}`;
  }
}

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const QUANTITY_KEYWORD = 'x-quantity';
const TIMES = ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime'];

const isQuantity = (s: string): boolean => {
  try { parseQuantity(s); return true; } catch { return false; }
};

/** Required fields and enums are validation (422), checked elsewhere; the decoder sees only types (and quantities). */
function typesOnly(defs: Record<string, unknown>): Record<string, unknown> {
  const out = JSON.parse(JSON.stringify(defs), (key, value: unknown) => (key === 'required' || key === 'enum' || key === 'default' ? undefined : value)) as Record<string, Record<string, unknown>>;
  if (out[QUANTITY]) out[QUANTITY] = { ...out[QUANTITY], [QUANTITY_KEYWORD]: true };
  // Go writes a zero metav1.Time as null (lastProbeTime: null) and reads it back
  for (const t of TIMES) if (out[t]) out[t] = { ...out[t], type: ['string', 'null'] };
  return out;
}
