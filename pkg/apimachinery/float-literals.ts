// Numbers a JSON body wrote with a fraction or an exponent (2.0, 1e3). JSON.parse makes integers of the integral
// ones, but upstream's decoder (Go's encoding/json) reads an integer field with strconv.ParseInt, which refuses any
// such literal: "json: cannot unmarshal number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32".
// A body without them, nearly every one, is known to have none from the scan it already gets (json-duplicates.ts);
// the literals of one that has them are kept here, by the value JSON.parse made, for the decoder of the kind.
//
//   rememberFloatLiterals(value, literals)        // decodeBody, after JSON.parse
//   floatLiteralsOf(value): FloatLiteral[] | undefined

export interface FloatLiteral {
  /** Where the number is: object keys and list indexes from the document's root. */
  path: (string | number)[];
  /** The number as written. */
  text: string;
}

const literals = new WeakMap<object, readonly FloatLiteral[]>();

export function rememberFloatLiterals(value: unknown, found: readonly FloatLiteral[]): void {
  if (typeof value === 'object' && value !== null && found.length > 0) literals.set(value, found);
}

/** The literals of a parsed body, in document order; undefined for any other value (a copy of it too). */
export const floatLiteralsOf = (value: unknown): readonly FloatLiteral[] | undefined =>
  typeof value === 'object' && value !== null ? literals.get(value) : undefined;
