// The pure API machinery: errors, selectors, names and validation, quantities, patches, server-side apply.
export * from './errors.js';
/** Field-error causes as upstream's validation/field package: field.required(...), field.invalidValue(...). */
export * as field from './field.js';
export * from './fields.js';
export * from './labels.js';
export * from './meta.js';
export * from './names.js';
export * from './objectmeta.js';
export * from './quantity.js';
export * from './schema-lookup.js';
export * from './patch/decode.js';
export * from './patch/json-patch.js';
export * from './patch/merge-patch.js';
export * from './patch/strategic-merge-patch.js';
export { apply, BEFORE_FIRST_APPLY, type ApplyOptions } from './managedfields/apply.js';
export { updateManagedFields, type UpdateOptions } from './managedfields/update.js';
export { defaultManager } from './managedfields/entries.js';
