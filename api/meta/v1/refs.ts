// Walks schemas for the definitions they reference; used by the api/ tests to prove every $ref resolves.
// (A natural home would be api/schema.ts; it lives here because that file is shared.)
import { refName, type Definitions, type Schema } from '../../schema.js';

export const refsOf = (s: Schema): string[] => {
  const own = refName(s);
  const nested = [
    ...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : []),
    ...(typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []),
    ...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? []),
  ];
  return [...(own ? [own] : []), ...nested.flatMap(refsOf)];
};

/** "definition -> missing target" for each $ref in `definitions` that `known` does not define. */
export const danglingRefs = (definitions: Definitions, known: Definitions): string[] =>
  Object.entries(definitions).flatMap(([name, s]) =>
    refsOf(s).filter((target) => !known[target]).map((target) => `${name} -> ${target}`));
