// Required fields per the schema: missing ones are 422 Invalid "Required value", as upstream's
// validation words them. Status is the controllers' report, not user input: it is not checked.
import type { Schema } from '../../../api/schema.js';
import { isPlainObject, type SchemaIndex } from './index.js';

export function missingRequired(index: SchemaIndex, value: unknown, schema: Schema, path = ''): string[] {
  const { schema: s } = index.resolve(schema);
  const missing: string[] = [];
  if (Array.isArray(value)) {
    if (s.items) value.forEach((item, i) => missing.push(...missingRequired(index, item, s.items!, `${path}[${i}]`)));
    return missing;
  }
  if (!isPlainObject(value)) return missing;
  for (const key of s.required ?? []) {
    if (value[key] === undefined || value[key] === null || value[key] === '') missing.push(path ? `${path}.${key}` : key);
  }
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    if (path === '' && key === 'status') continue;
    if (value[key] !== undefined) missing.push(...missingRequired(index, value[key], prop, path ? `${path}.${key}` : key));
  }
  return missing;
}
