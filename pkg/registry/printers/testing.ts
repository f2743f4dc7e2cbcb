// Fixtures shared by the printer tests: a fixed clock and timestamps relative to it.
import type { KubeObject } from '../../../api/types.js';

export const NOW = new Date('2024-06-01T12:00:00Z');

/** The RFC 3339 time `seconds` before NOW. */
export const ago = (seconds: number): string => new Date(NOW.getTime() - seconds * 1000).toISOString();

/** An object with a name, created `createdSecondsAgo` before NOW (no creationTimestamp when omitted). */
export function obj(name: string, fields: Record<string, unknown> = {}, createdSecondsAgo?: number): KubeObject {
  const metadata = { name, ...(createdSecondsAgo === undefined ? {} : { creationTimestamp: ago(createdSecondsAgo) }) };
  const extra = (fields.metadata ?? {}) as Record<string, unknown>;
  return { ...fields, metadata: { ...metadata, ...extra } };
}
