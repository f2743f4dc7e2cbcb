// Go's `omitempty`: a scalar field at its zero value ("", 0, false) is not written when a built-in object is
// encoded, so upstream neither stores nor serves one, whatever the client sent (`hostNetwork: false`,
// `minReadySeconds: 0`). The protobuf tables mark the scalar fields that keep a zero (pointers, and fields without
// omitempty); every other scalar field of a built-in definition is omitempty.
import { protoFields } from '../../../api/proto/index.js';
import type { Schema } from '../../../api/schema.js';

const cache = new Map<string, ReadonlySet<string> | undefined>();

/** The fields of a built-in definition that are left out at their zero value (undefined: not a built-in message). */
export function omitemptyFields(definition: string): ReadonlySet<string> | undefined {
  if (cache.has(definition)) return cache.get(definition);
  const message = protoFields[definition];
  const fields = message
    ? new Set(Object.values(message).filter((f): f is string => typeof f === 'string' && !f.endsWith('*')))
    : undefined;
  cache.set(definition, fields);
  return fields;
}

/** Whether `value` is the zero value of a plain scalar property (a $ref, say to IntOrString or Quantity, is not one). */
export function isZeroScalar(value: unknown, property: Schema): boolean {
  switch (property.type) {
    case 'integer':
    case 'number': return value === 0;
    case 'string': return value === '';
    case 'boolean': return value === false;
    default: return false;
  }
}
