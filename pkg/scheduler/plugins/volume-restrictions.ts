// VolumeRestrictions, as upstream's volumerestrictions plugin: a ReadWriteOncePod claim already used by a pod
// anywhere keeps the pod out, and on a node a pod may not share a GCE PD, AWS EBS, iSCSI or RBD disk with another
// pod unless both mount it read-only (EBS: never).
import {
  SKIP, unresolvable, unschedulable, type ClusterEventWithHint, type CycleState, type FilterPlugin, type Handle, type PreFilterPlugin,
} from '../framework/interface.js';
import type { NodeInfo } from '../node-info.js';
import type { Pod } from '../types.js';
import { podClaims } from '../volumes.js';

const ERR_DISK_CONFLICT = 'node(s) had no available disk';
const ERR_RWOP_CONFLICT = 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';
const KEY = 'PreFilterVolumeRestrictions';

interface RestrictionState {
  /** "namespace/claim" of the pod's ReadWriteOncePod claims. */
  rwop: Set<string>;
  /** Pods using one of them (what preemption's what-ifs add and remove). */
  conflicts: number;
  clone(): RestrictionState;
}

const makeState = (rwop: Set<string>, conflicts: number): RestrictionState => ({ rwop, conflicts, clone: () => makeState(rwop, conflicts) });

type Volume = Record<string, any>;
const DISK_KINDS = ['gcePersistentDisk', 'awsElasticBlockStore', 'iscsi', 'rbd'];
const diskVolumes = (pod: Pod): Volume[] => ((pod.spec?.volumes ?? []) as Volume[]).filter((v) => DISK_KINDS.some((k) => v[k]));

/** Upstream's isVolumeConflict: the same disk, not read-only on both sides. */
const conflicts = (v: Volume, e: Volume): boolean => {
  if (v.gcePersistentDisk && e.gcePersistentDisk) {
    return v.gcePersistentDisk.pdName === e.gcePersistentDisk.pdName && !(v.gcePersistentDisk.readOnly && e.gcePersistentDisk.readOnly);
  }
  if (v.awsElasticBlockStore && e.awsElasticBlockStore) return v.awsElasticBlockStore.volumeID === e.awsElasticBlockStore.volumeID;
  if (v.iscsi && e.iscsi) return v.iscsi.iqn === e.iscsi.iqn && !(v.iscsi.readOnly && e.iscsi.readOnly);
  if (v.rbd && e.rbd) {
    const monitors = new Set<string>(v.rbd.monitors ?? []);
    const shared = ((e.rbd.monitors ?? []) as string[]).some((m) => monitors.has(m));
    return shared && (v.rbd.pool ?? 'rbd') === (e.rbd.pool ?? 'rbd') && v.rbd.image === e.rbd.image && !(v.rbd.readOnly && e.rbd.readOnly);
  }
  return false;
};

const EVENTS: ClusterEventWithHint[] = [
  { event: { resource: 'AssignedPod', action: 'Delete' } },
  { event: { resource: 'PersistentVolumeClaim', action: 'Add' } }, { event: { resource: 'PersistentVolumeClaim', action: 'Update' } },
];

export const volumeRestrictions = (_args: unknown, handle: Handle): PreFilterPlugin & FilterPlugin => {
  const adjust = (state: CycleState, other: Pod, d: number): void => {
    const s = state.read<RestrictionState>(KEY);
    if (!s?.rwop.size) return;
    const ns = other.metadata?.namespace ?? '';
    if (podClaims(other).some((c) => s.rwop.has(`${ns}/${c.name}`))) s.conflicts += d;
  };
  return {
    name: 'VolumeRestrictions',
    events: () => EVENTS,
    preFilter: (state, pod) => {
      const ns = pod.metadata?.namespace ?? '';
      const rwop = new Set<string>();
      for (const c of podClaims(pod)) {
        const claim = handle.listers.pvcs.get(`${ns}/${c.name}`);
        if (!claim) return unresolvable(`persistentvolumeclaim "${c.name}" not found`);
        if (((claim.spec?.accessModes ?? []) as string[]).includes('ReadWriteOncePod')) rwop.add(`${ns}/${c.name}`);
      }
      let used = 0;
      for (const k of rwop) used += handle.cache.claimUsers.get(k) ?? 0;
      if (!used && !diskVolumes(pod).length) return SKIP;
      state.write(KEY, makeState(rwop, used));
      return null;
    },
    addPod: (state, _pod, added) => adjust(state, added, 1),
    removePod: (state, _pod, removed) => adjust(state, removed, -1),
    filter: (state, pod, node: NodeInfo) => {
      const disks = diskVolumes(pod);
      if (disks.length) {
        for (const pi of node.pods.values()) {
          const theirs = diskVolumes(pi.pod);
          if (theirs.length && disks.some((v) => theirs.some((e) => conflicts(v, e)))) return unschedulable(ERR_DISK_CONFLICT);
        }
      }
      const s = state.read<RestrictionState>(KEY);
      return s && s.conflicts > 0 ? unschedulable(ERR_RWOP_CONFLICT) : null;
    },
  };
};
