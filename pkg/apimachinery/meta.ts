// Small object-meta helpers the registry and controllers share.
//
//   now(date = new Date()): string               // metav1.Time: RFC 3339, seconds, "2026-01-02T03:04:05Z"
//   newUid(): string                             // a random UUID, as upstream's types.UID
//   parseApiVersion(apiVersion): { group, version }
//   gvkOf(obj): GroupVersionKind
//   metaOf(obj): ObjectMeta                      // obj.metadata, created if absent
//   namespacedName(obj): string                  // "ns/name" or "name", as cache keys are written
//   isBeingDeleted(obj), hasFinalizer(obj, f), controllerRef(obj): OwnerReference | undefined
import { randomFillSync } from 'node:crypto';
import type { GroupVersionKind } from '../../api/schema.js';
import type { KubeObject, ObjectMeta, OwnerReference } from '../../api/types.js';

export const now = (date: Date = new Date()): string => `${date.toISOString().slice(0, 19)}Z`;

// Random bytes for 256 UUIDs at a time, and the text written into one buffer read back as a single flat string:
// crypto.randomUUID() builds its text by concatenation, which every regexp test (header validation) and JSON
// serialization flattens again; two UUIDs go into every request (Audit-ID, a create's uid).
const UUIDS_PER_FILL = 256;
const randomBytes = Buffer.allocUnsafe(16 * UUIDS_PER_FILL);
let nextUuid = UUIDS_PER_FILL;
const uuidText = Buffer.allocUnsafe(36);
const HEX = Buffer.from('0123456789abcdef');

/** A version 4 (random) UUID, as upstream's uuid.NewUUID gives types.UID. */
export function newUid(): string {
  if (nextUuid === UUIDS_PER_FILL) {
    randomFillSync(randomBytes);
    nextUuid = 0;
  }
  const at = 16 * nextUuid++;
  randomBytes[at + 6] = (randomBytes[at + 6]! & 0x0f) | 0x40; // version 4
  randomBytes[at + 8] = (randomBytes[at + 8]! & 0x3f) | 0x80; // RFC 4122 variant
  let o = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) uuidText[o++] = 0x2d; // '-'
    const b = randomBytes[at + i]!;
    uuidText[o++] = HEX[b >> 4]!;
    uuidText[o++] = HEX[b & 15]!;
  }
  return uuidText.toString('latin1', 0, 36);
}

export const parseApiVersion = (apiVersion: string | undefined): { group: string; version: string } => {
  const v = apiVersion ?? '';
  const slash = v.indexOf('/');
  return slash < 0 ? { group: '', version: v } : { group: v.slice(0, slash), version: v.slice(slash + 1) };
};

export const gvkOf = (obj: KubeObject): GroupVersionKind => ({ ...parseApiVersion(obj.apiVersion), kind: obj.kind ?? '' });

export const metaOf = (obj: KubeObject): ObjectMeta => {
  obj.metadata ??= {};
  return obj.metadata;
};

export const namespacedName = (obj: KubeObject): string => {
  const { namespace, name = '' } = obj.metadata ?? {};
  return namespace ? `${namespace}/${name}` : name;
};

export const isBeingDeleted = (obj: KubeObject): boolean => Boolean(obj.metadata?.deletionTimestamp);

export const hasFinalizer = (obj: KubeObject, finalizer: string): boolean => (obj.metadata?.finalizers ?? []).includes(finalizer);

export const controllerRef = (obj: KubeObject): OwnerReference | undefined =>
  obj.metadata?.ownerReferences?.find((r) => r.controller === true);
