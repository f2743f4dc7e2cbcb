// NodeVolumeLimits, as upstream's nodevolumelimits CSILimits plugin: a node's CSINode lists, per CSI driver, how
// many volumes it can attach (spec.drivers[].allocatable.count); the pod's new CSI volumes (bound PVs' spec.csi, an
// unbound claim's StorageClass provisioner, inline CSI volumes) plus those of the pods already there, each unique
// volume once, must stay within it. Drivers whose CSIDriver says attachRequired: false are not counted.
import type { KubeObject } from '../../client/index.js';
import {
  SKIP, errorStatus, unresolvable, unschedulable, type ClusterEventWithHint, type FilterPlugin, type Handle, type PreFilterPlugin,
} from '../framework/interface.js';
import type { Pod } from '../types.js';
import { podClaims } from '../volumes.js';

const ERR_MAX_VOLUME_COUNT = 'node(s) exceed max volume count';

class ClaimNotFound extends Error {}

const EVENTS: ClusterEventWithHint[] = [
  { event: { resource: 'CSINode', action: 'Add' } }, { event: { resource: 'CSINode', action: 'Update' } },
  { event: { resource: 'AssignedPod', action: 'Delete' } },
  { event: { resource: 'PersistentVolumeClaim', action: 'Add' } },
  { event: { resource: 'Node', action: 'Add' } },
];

const hasCsiCandidates = (pod: Pod): boolean =>
  ((pod.spec?.volumes ?? []) as Record<string, unknown>[]).some((v) => v.persistentVolumeClaim || v.ephemeral || v.csi);

export const nodeVolumeLimits = (_args: unknown, handle: Handle): PreFilterPlugin & FilterPlugin => {
  const attachable = (driver: string): boolean => handle.listers.csiDrivers.get(driver)?.spec?.attachRequired !== false;

  /** Adds the pod's attachable CSI volumes (unique name → driver) to `into`; a missing claim of a new pod throws. */
  const volumesOf = (pod: Pod, isNew: boolean, into: Map<string, string>): void => {
    const ns = pod.metadata?.namespace ?? '';
    for (const v of (pod.spec?.volumes ?? []) as { name: string; csi?: { driver?: string } }[]) {
      if (v.csi?.driver && attachable(v.csi.driver)) into.set(`${v.csi.driver}/${ns}/${pod.metadata?.name}/${v.name}`, v.csi.driver);
    }
    for (const c of podClaims(pod)) {
      const claim = handle.listers.pvcs.get(`${ns}/${c.name}`);
      if (!claim) {
        if (isNew) throw new ClaimNotFound(`persistentvolumeclaim "${c.name}" not found`);
        continue;
      }
      const info = driverOf(claim);
      if (info && attachable(info.driver)) into.set(`${info.driver}/${info.handle}`, info.driver);
    }
  };

  /** The claim's CSI driver and volume handle: its PV's, or (unbound) its StorageClass's provisioner. */
  const driverOf = (claim: KubeObject): { driver: string; handle: string } | undefined => {
    const pvName = claim.spec?.volumeName as string | undefined;
    if (pvName) {
      const csi = handle.listers.pvs.get(pvName)?.spec?.csi as { driver?: string; volumeHandle?: string } | undefined;
      return csi?.driver ? { driver: csi.driver, handle: csi.volumeHandle ?? pvName } : undefined;
    }
    const className = claim.spec?.storageClassName as string | undefined;
    const provisioner = className ? handle.listers.storageClasses.get(className)?.provisioner as string | undefined : undefined;
    // a placeholder handle: the volume does not exist yet, but will count once provisioned
    return provisioner ? { driver: provisioner, handle: `${claim.metadata?.namespace}-${claim.metadata?.name}` } : undefined;
  };

  return {
    name: 'NodeVolumeLimits',
    events: () => EVENTS,
    preFilter: (_state, pod) => (hasCsiCandidates(pod) ? null : SKIP),
    filter: (_state, pod, node) => {
      const fresh = new Map<string, string>();
      try {
        volumesOf(pod, true, fresh);
      } catch (e) {
        return e instanceof ClaimNotFound ? unresolvable(e.message) : errorStatus(e);
      }
      if (!fresh.size) return null;
      const limits = new Map<string, number>();
      for (const d of (handle.listers.csiNodes.get(node.name)?.spec?.drivers ?? []) as { name: string; allocatable?: { count?: number } }[]) {
        if (typeof d.allocatable?.count === 'number') limits.set(d.name, d.allocatable.count);
      }
      if (!limits.size) return null;
      const attached = new Map<string, string>();
      for (const pi of node.pods.values()) volumesOf(pi.pod, false, attached);
      const attachedCount = new Map<string, number>();
      for (const [name, driver] of attached) {
        fresh.delete(name); // a volume shared with a pod already there is attached once
        attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
      }
      const newCount = new Map<string, number>();
      for (const driver of fresh.values()) newCount.set(driver, (newCount.get(driver) ?? 0) + 1);
      for (const [driver, n] of newCount) {
        const max = limits.get(driver);
        if (max !== undefined && (attachedCount.get(driver) ?? 0) + n > max) return unschedulable(ERR_MAX_VOLUME_COUNT);
      }
      return null;
    },
  };
};
