// Go's view of a decoded container field, beyond field-checks.ts's readers: whether a pointer, list or map is set,
// and a number read as Go's zero value when absent.

/** A set pointer, list or map: Go's nil is an absent field or JSON null. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Go's integer: 0 when absent or not a number. */
export const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

