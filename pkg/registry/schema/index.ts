// One index over every definition served: resolves $ref, and walks an object along its schema to
// apply defaults, prune unknown fields and check JSON types. Built-in kinds and (later) custom
// resources both go through here, so the rules live in one place.
import { refName, type Definitions, type Schema } from '../../../api/schema.js';
import type { Defaulter } from '../../../api/types.js';

export class SchemaIndex {
  constructor(
    readonly definitions: Definitions,
    readonly defaulters: Record<string, Defaulter> = {},
  ) {}

  lookup = (name: string): Schema | undefined => this.definitions[name];

  /** Follows `$ref` and the `allOf: [{$ref}]` wrapper used to attach a description; returns the target and its name. */
  resolve(s: Schema): { schema: Schema; name?: string } {
    let name = refName(s);
    if (!name && s.allOf?.length === 1) name = refName(s.allOf[0]!);
    if (!name) return { schema: s };
    const target = this.definitions[name];
    if (!target) throw new Error(`schema: unresolved reference ${name}`);
    return { schema: target, name };
  }
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
