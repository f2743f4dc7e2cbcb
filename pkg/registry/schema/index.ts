// One index over every definition served: resolves $ref, and walks an object along its schema to
// apply defaults, prune unknown fields and check JSON types. Built-in kinds and (later) custom
// resources both go through here, so the rules live in one place.
import { refName, type Definitions, type Schema } from '../../../api/schema.js';
import type { Defaulter } from '../../../api/types.js';

/** The definitions whose Go types decode and encode through their own code: read and written their own way. */
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
export const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';

export class SchemaIndex {
  constructor(
    readonly definitions: Definitions,
    readonly defaulters: Record<string, Defaulter> = {},
  ) {}

  lookup = (name: string): Schema | undefined => this.definitions[name];

  /** Follows `$ref` and the `allOf: [{$ref}]` wrapper used to attach a description; returns the target and its name. */
  resolve(s: Schema): Resolved {
    let r = this.resolved.get(s);
    if (!r) this.resolved.set(s, (r = this.resolveUncached(s)));
    return r;
  }

  /** Definitions never change under an index: each schema node resolves once. */
  private readonly resolved = new WeakMap<Schema, Resolved>();

  private resolveUncached(s: Schema): Resolved {
    let name = refName(s);
    if (!name && s.allOf?.length === 1) name = refName(s.allOf[0]!);
    if (!name) return { schema: s };
    const target = this.definitions[name];
    if (!target) throw new Error(`schema: unresolved reference ${name}`);
    return { schema: target, name };
  }

  /**
   * Whether anything below `s` (itself included) satisfies `own`, following properties, items and
   * additionalProperties; a cycle counts as yes, so callers only ever skip subtrees that surely have nothing.
   */
  anyBelow(s: Schema, question: string, own: (r: Resolved) => boolean): boolean {
    let memo = this.answers.get(question);
    if (!memo) this.answers.set(question, (memo = new WeakMap()));
    return this.below(s, own, memo);
  }

  private readonly answers = new Map<string, WeakMap<Schema, boolean>>();

  /** The properties of the resolved `s` for which anyBelow answers yes, in schema order. */
  propertiesBelow(s: Schema, question: string, own: (r: Resolved) => boolean): [string, Schema][] {
    let memo = this.propertyLists.get(question);
    if (!memo) this.propertyLists.set(question, (memo = new WeakMap()));
    const t = this.resolve(s).schema;
    let list = memo.get(t);
    if (!list) memo.set(t, (list = Object.entries(t.properties ?? {}).filter(([, p]) => this.anyBelow(p, question, own))));
    return list;
  }

  private readonly propertyLists = new Map<string, WeakMap<Schema, [string, Schema][]>>();

  private below(s: Schema, own: (r: Resolved) => boolean, memo: WeakMap<Schema, boolean>): boolean {
    const r = this.resolve(s);
    const known = memo.get(r.schema);
    if (known !== undefined) return known;
    memo.set(r.schema, true);
    const t = r.schema;
    const children = [...Object.values(t.properties ?? {}), ...(t.items ? [t.items] : []), ...(isPlainObject(t.additionalProperties) ? [t.additionalProperties as Schema] : [])];
    const answer = own(r) || children.some((c) => this.below(c, own, memo));
    memo.set(r.schema, answer);
    return answer;
  }
}

export interface Resolved {
  schema: Schema;
  name?: string;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
