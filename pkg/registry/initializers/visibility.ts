// The alpha Initializers feature (Kubernetes 1.7-1.13): an object with metadata.initializers is uninitialized,
// and lists and watches leave it out unless they ask for ?includeUninitialized=true. A watch sees it appear as
// ADDED once its last initializer is gone (the cacher turns a predicate that starts matching into ADDED).
import type { KubeObject } from '../../../api/types.js';
import type { Predicate } from '../predicate.js';

export const isUninitialized = (obj: KubeObject): boolean => (obj.metadata as { initializers?: unknown } | undefined)?.initializers != null;

/** `predicate` restricted to initialized objects when `hide` (the feature is on and the request did not opt out). */
export function initializedOnly(predicate: Predicate | undefined, hide: boolean): Predicate | undefined {
  if (!hide) return predicate;
  return predicate ? (obj) => !isUninitialized(obj) && predicate(obj) : (obj) => !isUninitialized(obj);
}
