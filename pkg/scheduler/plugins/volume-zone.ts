// VolumeZone, as upstream's volumezone plugin: the zone and region labels of the PersistentVolumes bound to a pod's
// claims must match the node's (a PV's value may list several zones joined by "__"); nodes without any zone or
// region label are not checked, and unbound WaitForFirstConsumer claims are VolumeBinding's business.
import {
  SKIP, unresolvable, type ClusterEventWithHint, type FilterPlugin, type Handle, type PreFilterPlugin,
} from '../framework/interface.js';
import { podClaims } from '../volumes.js';

const ERR_CONFLICT = 'node(s) had no available volume zone';
const KEY = 'PreFilterVolumeZone';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const TOPOLOGY_LABELS = [BETA_ZONE, BETA_REGION, ZONE, REGION];
/** A PV's beta label also matches a node's GA one. */
const GA_OF: Record<string, string> = { [BETA_ZONE]: ZONE, [BETA_REGION]: REGION };

interface PvTopology { key: string; values: Set<string> }

const EVENTS: ClusterEventWithHint[] = [
  { event: { resource: 'StorageClass', action: 'Add' } },
  { event: { resource: 'Node', action: 'Add' } }, { event: { resource: 'Node', action: 'Update' } },
  { event: { resource: 'PersistentVolumeClaim', action: 'Add' } }, { event: { resource: 'PersistentVolumeClaim', action: 'Update' } },
  { event: { resource: 'PersistentVolume', action: 'Add' } }, { event: { resource: 'PersistentVolume', action: 'Update' } },
];

export const volumeZone = (_args: unknown, handle: Handle): PreFilterPlugin & FilterPlugin => ({
  name: 'VolumeZone',
  events: () => EVENTS,
  preFilter: (state, pod) => {
    const claims = podClaims(pod);
    if (!claims.length) return SKIP;
    const ns = pod.metadata?.namespace ?? '';
    const topologies: PvTopology[] = [];
    for (const c of claims) {
      const claim = handle.listers.pvcs.get(`${ns}/${c.name}`);
      if (!claim) return unresolvable(`persistentvolumeclaim "${c.name}" not found`);
      const pvName = claim.spec?.volumeName as string | undefined;
      if (!pvName) {
        const className = (claim.spec?.storageClassName ?? claim.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class']) as string | undefined;
        if (!className) return unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
        const sc = handle.listers.storageClasses.get(className);
        if (!sc) return unresolvable(`storageclass.storage.k8s.io "${className}" not found`);
        if (sc.volumeBindingMode === 'WaitForFirstConsumer') continue;
        return unresolvable('PersistentVolume had no name');
      }
      const pv = handle.listers.pvs.get(pvName);
      if (!pv) return unresolvable(`persistentvolume "${pvName}" not found`);
      const labels = (pv.metadata?.labels ?? {}) as Record<string, string>;
      for (const key of TOPOLOGY_LABELS) {
        if (labels[key] !== undefined) topologies.push({ key, values: new Set(labels[key].split('__').map((z) => z.trim()).filter(Boolean)) });
      }
    }
    if (!topologies.length) return SKIP;
    state.write(KEY, topologies);
    return null;
  },
  filter: (state, _pod, node) => {
    const topologies = state.read<PvTopology[]>(KEY);
    if (!topologies) return null;
    const labels = node.labels;
    if (!TOPOLOGY_LABELS.some((k) => labels[k] !== undefined)) return null;
    for (const t of topologies) {
      const v = labels[t.key] ?? (GA_OF[t.key] ? labels[GA_OF[t.key]!] : undefined);
      if (v === undefined || !t.values.has(v)) return unresolvable(ERR_CONFLICT);
    }
    return null;
  },
});
