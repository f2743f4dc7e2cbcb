import type { SchemaIndex } from '../schema/index.js';
import type { FieldManager } from './field-manager.js';
export function createFieldManager(_index: SchemaIndex): FieldManager {
  return { update() {}, apply(_live, applied) { return applied; } };
}
