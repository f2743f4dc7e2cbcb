// The served set changes at run time (custom resources), so every document is cached by a hash of the
// group-versions it was built from. A GroupVersion is hashed once per object identity: publish a new object to
// change one (never mutate a served GroupVersion in place).
import { createHash } from 'node:crypto';
import type { GroupVersion } from '../../../api/types.js';

export type GroupVersionSource = () => GroupVersion[];

const hashes = new WeakMap<GroupVersion, string>();

const hashOf = (gv: GroupVersion): string => {
  let h = hashes.get(gv);
  if (h === undefined) {
    // Defaulters are functions and do not show in documents; JSON.stringify drops them.
    h = createHash('sha256').update(JSON.stringify(gv)).digest('hex');
    hashes.set(gv, h);
  }
  return h;
};

/** A hash of the whole served set (order matters: it is the order groups are listed in). */
export const hashGroupVersions = (gvs: GroupVersion[]): string =>
  createHash('sha256').update(gvs.map(hashOf).join(',')).digest('hex');

/**
 * Memoizes `build` over the current served set: rebuilt only when the set's hash changes.
 * Keyed builds (one document per group-version) share the invalidation.
 */
export const cachedBySource = <T>(source: GroupVersionSource, build: (gvs: GroupVersion[]) => T) => {
  let lastHash: string | undefined;
  let lastValue: T | undefined;
  return (): T => {
    const gvs = source();
    const h = hashGroupVersions(gvs);
    if (h !== lastHash || lastValue === undefined) {
      lastValue = build(gvs);
      lastHash = h;
    }
    return lastValue;
  };
};

/** Like cachedBySource, for a family of documents addressed by key, all dropped when the set changes. */
export const keyedCacheBySource = <T>(source: GroupVersionSource, build: (gvs: GroupVersion[], key: string) => T) => {
  let lastHash: string | undefined;
  let values = new Map<string, T>();
  return (key: string): T => {
    const gvs = source();
    const h = hashGroupVersions(gvs);
    if (h !== lastHash) {
      values = new Map();
      lastHash = h;
    }
    let v = values.get(key);
    if (v === undefined) {
      v = build(gvs, key);
      values.set(key, v);
    }
    return v;
  };
};
