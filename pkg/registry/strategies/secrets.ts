// Secrets: stringData is a write-only convenience merged into data (base64) on every write, and
// the type defaults to Opaque and never changes (upstream: core/v1 conversion and
// registry/core/secret/strategy.go).
import type { KubeObject } from '../../../api/types.js';
import { forbidden, invalidValue } from '../../apimachinery/field.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import type { Strategy } from '../strategy.js';

function mergeStringData(secret: KubeObject): void {
  const stringData = secret.stringData as Record<string, string> | undefined;
  delete secret.stringData;
  secret.type ||= 'Opaque';
  if (!stringData || Object.keys(stringData).length === 0) return;
  const data: Record<string, string> = { ...(secret.data ?? {}) };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  secret.data = data;
}

export const secretStrategy: Strategy = {
  prepareForCreate: mergeStringData,
  prepareForUpdate: mergeStringData,
  validateUpdate(secret, old): StatusCause[] {
    const causes: StatusCause[] = [];
    if ((secret.type ?? 'Opaque') !== (old.type ?? 'Opaque')) causes.push(invalidValue('type', secret.type, 'field is immutable'));
    if (old.immutable === true) {
      if (secret.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
      if (JSON.stringify(secret.data ?? {}) !== JSON.stringify(old.data ?? {})) causes.push(forbidden('data', 'field is immutable when `immutable` is set'));
    }
    return causes;
  },
};
