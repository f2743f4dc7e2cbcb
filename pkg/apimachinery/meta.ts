// Small object-meta helpers the registry and controllers share.
//
//   now(date = new Date()): string               // metav1.Time: RFC 3339, seconds, "2026-01-02T03:04:05Z"
//   microTime(date = new Date()): string         // metav1.MicroTime: "2026-01-02T03:04:05.123000Z"
//   newUid(): string                             // a random UUID, as upstream's types.UID
//   parseApiVersion(apiVersion): { group, version }
//   gvkOf(obj): GroupVersionKind
//   metaOf(obj): ObjectMeta                      // obj.metadata, created if absent
//   namespacedName(obj): string                  // "ns/name" or "name", as cache keys are written
//   isBeingDeleted(obj), hasFinalizer(obj, f), controllerRef(obj): OwnerReference | undefined
import { randomUUID } from 'node:crypto';
import type { GroupVersionKind } from '../../api/schema.js';
import type { KubeObject, ObjectMeta, OwnerReference } from '../../api/types.js';

export const now = (date: Date = new Date()): string => `${date.toISOString().slice(0, 19)}Z`;

/** JavaScript keeps milliseconds; the three extra digits of upstream's microseconds are zeros. */
export const microTime = (date: Date = new Date()): string => `${date.toISOString().slice(0, 23)}000Z`;

export const newUid = (): string => randomUUID();

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
