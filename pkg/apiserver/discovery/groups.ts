// How discovery orders what it lists, and the stable hash it shows for each resource.
import { createHash } from 'node:crypto';
import type { GroupVersion } from '../../../api/types.js';

export interface ServedGroup {
  name: string;
  /** Highest priority first; the first is the preferred version. */
  versions: GroupVersion[];
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Upstream's kube-aware version order: GA before beta before alpha, higher numbers first,
 * and versions that do not look like Kubernetes versions last, alphabetically.
 */
export const compareVersions = (a: string, b: string): number => {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const stability = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  return stability(mb) - stability(ma)
    || Number(mb[1]) - Number(ma[1])
    || Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
};

/**
 * The named groups (not core) in the order the source lists them; a 1.32 apiserver lists groups by priority,
 * and api/index.ts already gives them in that order.
 */
export const namedGroups = (gvs: GroupVersion[]): ServedGroup[] => {
  const byName = new Map<string, GroupVersion[]>();
  for (const gv of gvs) {
    // A group-version with no resources only lends definitions (a Scale kind, say); upstream lists none such.
    if (gv.group === '' || (gv.resources.length === 0 && !gv.remote)) continue;
    const list = byName.get(gv.group) ?? [];
    list.push(gv);
    byName.set(gv.group, list);
  }
  return [...byName].map(([name, versions]) => ({
    name,
    versions: versions.sort((a, b) => compareVersions(a.version, b.version)),
  }));
};

/** The core group's versions (only v1 upstream). */
export const coreVersions = (gvs: GroupVersion[]): GroupVersion[] =>
  gvs.filter((gv) => gv.group === '' && gv.resources.length > 0).sort((a, b) => compareVersions(a.version, b.version));

export const findGroupVersion = (gvs: GroupVersion[], group: string, version: string): GroupVersion | undefined =>
  gvs.find((gv) => gv.group === group && gv.version === version && gv.resources.length > 0);

/**
 * Upstream's StorageVersionHash: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>") of the
 * storage version. Clients only compare it for equality (the storage migrator), so the served version stands in.
 */
export const storageVersionHash = (group: string, version: string, kind: string): string =>
  createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
