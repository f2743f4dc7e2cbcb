// VolumeBinding, the basics of upstream's plugin: a pod's PersistentVolumeClaims (and the claims of its generic
// ephemeral volumes, owned by the pod) must exist; a bound claim's volume node affinity must match the node; an
// unbound claim must be WaitForFirstConsumer (an Immediate one waits for the PV controller) and find, on the node,
// an available PersistentVolume or a provisioner. PreBind records the choice: a static volume gets the claim's
// claimRef, a provisioned claim the `volume.kubernetes.io/selected-node` annotation, then waits (up to
// bindTimeoutSeconds, in the binding cycle) until the PV controller has bound every claim, so a pod is never
// bound to its node before its volumes are.
import { setTimeout as sleep } from 'node:timers/promises';
import { nodeSelectorMatches } from '../affinity.js';
import {
  SKIP, errorStatus, unresolvable, type ClusterEventWithHint, type CycleState, type FilterPlugin, type Handle, type PreBindPlugin,
  type PreFilterPlugin, type ReservePlugin,
} from '../framework/interface.js';
import { toResources } from '../resources.js';
import type { KubeObject } from '../../client/index.js';
import type { Node, Pod } from '../types.js';
import { podClaims } from '../volumes.js';

interface ClaimInfo { claim: KubeObject; pv?: KubeObject; className?: string; provisioned: boolean }
interface VolumeState { bound: ClaimInfo[]; unbound: ClaimInfo[]; chosen?: Map<string, KubeObject | 'provision'> }

const EVENTS: ClusterEventWithHint[] = ([
  { resource: 'PersistentVolumeClaim', action: 'All' }, { resource: 'PersistentVolume', action: 'All' },
  { resource: 'StorageClass', action: 'All' }, { resource: 'Node', action: 'Add' }, { resource: 'Node', action: 'Update' },
] as const).map((event) => ({ event }));
const NO_PROVISIONER = 'kubernetes.io/no-provisioner';
const SELECTED_NODE = 'volume.kubernetes.io/selected-node';

const pvMatchesNode = (pv: KubeObject, node: Node): boolean => {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  return !terms || nodeSelectorMatches(terms, node);
};

const pvFits = (pv: KubeObject, claim: KubeObject, className: string | undefined): boolean => {
  if (pv.spec?.claimRef || (pv.status?.phase && pv.status.phase !== 'Available')) return false;
  if ((pv.spec?.storageClassName ?? '') !== (className ?? '')) return false;
  const want = toResources(claim.spec?.resources?.requests).storage ?? 0;
  if ((toResources(pv.spec?.capacity).storage ?? 0) < want) return false;
  const modes = (pv.spec?.accessModes ?? []) as string[];
  return ((claim.spec?.accessModes ?? []) as string[]).every((m) => modes.includes(m));
};

export const volumeBinding = (args: unknown, handle: Handle): PreFilterPlugin & FilterPlugin & ReservePlugin & PreBindPlugin => ({
  name: 'VolumeBinding',
  events: () => EVENTS,
  preFilter: (state: CycleState, pod: Pod) => {
    const claims = podClaims(pod);
    if (!claims.length) return SKIP;
    const ns = pod.metadata?.namespace ?? 'default';
    const st: VolumeState = { bound: [], unbound: [] };
    for (const { name, ephemeral } of claims) {
      const claim = handle.listers.pvcs.get(`${ns}/${name}`);
      if (!claim) return unresolvable(ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` : `persistentvolumeclaim "${name}" not found`);
      if (claim.metadata?.deletionTimestamp) return unresolvable(`persistentvolumeclaim "${name}" is being deleted`);
      if (ephemeral && !((claim.metadata?.ownerReferences ?? []) as { uid?: string; controller?: boolean }[]).some((o) => o.controller && o.uid === pod.metadata?.uid)) {
        return unresolvable(`PVC ${ns}/${name} was not created for pod ${ns}/${pod.metadata?.name} (pod is not owner)`);
      }
      const className = claim.spec?.storageClassName as string | undefined;
      if (claim.spec?.volumeName) {
        st.bound.push({ claim, pv: handle.listers.pvs.get(claim.spec.volumeName), className, provisioned: false });
        continue;
      }
      const sc = className ? handle.listers.storageClasses.get(className) : undefined;
      if (sc?.volumeBindingMode !== 'WaitForFirstConsumer') return unresolvable('pod has unbound immediate PersistentVolumeClaims');
      st.unbound.push({ claim, className, provisioned: !!sc.provisioner && sc.provisioner !== NO_PROVISIONER });
    }
    state.write('PreFilterVolumeBinding', st);
    return null;
  },
  filter: (state, _pod, node) => {
    const st = state.read<VolumeState>('PreFilterVolumeBinding');
    if (!st) return null;
    for (const b of st.bound) if (b.pv && !pvMatchesNode(b.pv, node.node!)) return unresolvable('node(s) had volume node affinity conflict');
    const taken = new Set<string>();
    for (const u of st.unbound) {
      const pv = handle.listers.pvs.list().find((p) => !taken.has(p.metadata!.name!) && pvFits(p, u.claim, u.className) && pvMatchesNode(p, node.node!));
      if (pv) { taken.add(pv.metadata!.name!); continue; }
      if (!u.provisioned) return unresolvable("node(s) didn't find available persistent volumes to bind");
    }
    return null;
  },
  reserve: (state, _pod, node) => {
    const st = state.read<VolumeState>('PreFilterVolumeBinding');
    if (!st?.unbound.length) return null;
    const nodeObj = handle.cache.nodeInfo(node)?.node;
    st.chosen = new Map();
    const taken = new Set<string>();
    for (const u of st.unbound) {
      const pv = nodeObj && handle.listers.pvs.list().find((p) => !taken.has(p.metadata!.name!) && pvFits(p, u.claim, u.className) && pvMatchesNode(p, nodeObj));
      if (pv) taken.add(pv.metadata!.name!);
      st.chosen.set(u.claim.metadata!.name!, pv ?? 'provision');
    }
    return null;
  },
  unreserve: (state) => { const st = state.read<VolumeState>('PreFilterVolumeBinding'); if (st) st.chosen = undefined; },
  preBind: async (state, pod, node) => {
    const st = state.read<VolumeState>('PreFilterVolumeBinding');
    if (!st?.chosen) return SKIP;
    try {
      // What we write is kept, as upstream's assume cache keeps it: the informer's copy may not have seen it yet.
      const bindings: Binding[] = [];
      const provisions: KubeObject[] = [];
      const ns = pod.metadata?.namespace ?? 'default';
      for (const u of st.unbound) {
        const choice = st.chosen.get(u.claim.metadata!.name!);
        if (choice === 'provision') {
          provisions.push(await handle.client.persistentVolumeClaims(ns).patch(u.claim.metadata!.name!, 'merge', { metadata: { annotations: { [SELECTED_NODE]: node } } }));
        } else if (choice) {
          const pv = await handle.client.persistentVolumes().patch(choice.metadata!.name!, 'merge', {
            spec: { claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: ns, name: u.claim.metadata!.name, uid: u.claim.metadata!.uid } },
          });
          bindings.push({ pv, claim: u.claim.metadata!.name! });
        }
      }
      const timeoutMs = ((args as { bindTimeoutSeconds?: number } | undefined)?.bindTimeoutSeconds ?? BIND_TIMEOUT_SECONDS) * 1000;
      await waitForBindings(handle, ns, node, bindings, provisions, timeoutMs);
      return null;
    } catch (e) {
      return errorStatus(e);
    }
  },
});

/** VolumeBindingArgs' default. */
const BIND_TIMEOUT_SECONDS = 600;
const BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';

/** A static binding as written: the volume returned by the claimRef patch, and its claim's name. */
interface Binding { pv: KubeObject; claim: string }

/** True when `written` (what this binder wrote) is newer than `seen` (the informer's copy): the informer lags. */
export const newerThan = (written: KubeObject, seen: KubeObject): boolean => {
  const rv = (o: KubeObject): bigint | undefined => {
    const v = o.metadata?.resourceVersion;
    return v && /^\d+$/.test(v) ? BigInt(v) : undefined;
  };
  const a = rv(written);
  const b = rv(seen);
  return a !== undefined && b !== undefined && a > b;
};

const fullyBound = (claim: KubeObject): boolean => !!claim.spec?.volumeName && claim.metadata?.annotations?.[BIND_COMPLETED] !== undefined;

/**
 * Upstream's checkBindings, on the informer's copies: true when every claim is bound, false to keep waiting (also
 * while the informer has not yet seen what was written), an error to send the pod back.
 */
export function checkBindings(handle: Handle, ns: string, node: string, bindings: Binding[], provisions: KubeObject[]): boolean {
  const nodeObj = handle.cache.nodeInfo(node)?.node;
  if (!nodeObj) throw new Error(`failed to get node "${node}": node "${node}" not found`);
  for (const { pv: written, claim: claimName } of bindings) {
    const name = written.metadata!.name!;
    const pv = handle.listers.pvs.get(name);
    if (!pv) throw new Error(`failed to check binding: could not find v1.PersistentVolume "${name}"`);
    const claim = handle.listers.pvcs.get(`${ns}/${claimName}`);
    if (!claim) throw new Error(`failed to check binding: could not find v1.PersistentVolumeClaim "${ns}/${claimName}"`);
    if (newerThan(written, pv)) return false;
    if (!pvMatchesNode(pv, nodeObj)) throw new Error(`pv "${name}" node affinity doesn't match node "${node}": no matching NodeSelectorTerms`);
    if (!pv.spec?.claimRef?.uid) throw new Error(`ClaimRef got reset for pv "${name}"`);
    if (!fullyBound(claim)) return false;
  }
  for (const written of provisions) {
    const key = `${ns}/${written.metadata!.name!}`;
    const claim = handle.listers.pvcs.get(key);
    if (!claim) throw new Error(`failed to check provisioning pvc: could not find v1.PersistentVolumeClaim "${key}"`);
    if (newerThan(written, claim)) return false;
    const annotations = claim.metadata?.annotations;
    if (!annotations) throw new Error(`selectedNode annotation reset for PVC "${claim.metadata?.name}"`);
    // a provisioner that fails takes the annotation away, to have the scheduler choose again
    if (annotations[SELECTED_NODE] !== node) throw new Error(`provisioning failed for PVC "${claim.metadata?.name}"`);
    if (claim.spec?.volumeName) {
      const pv = handle.listers.pvs.get(claim.spec.volumeName);
      if (!pv) return false; // not seen yet
      if (!pvMatchesNode(pv, nodeObj)) throw new Error(`pv "${pv.metadata?.name}" node affinity doesn't match node "${node}": no matching NodeSelectorTerms`);
    }
    if (!fullyBound(claim)) return false;
  }
  return true;
}

/** Upstream's BindPodVolumes' wait: checkBindings polled until true, an error or bindTimeoutSeconds. */
async function waitForBindings(handle: Handle, ns: string, node: string, bindings: Binding[], provisions: KubeObject[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let done: boolean;
    try {
      done = checkBindings(handle, ns, node, bindings, provisions);
    } catch (e) {
      throw new Error(`binding volumes: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (done) return;
    if (Date.now() > deadline) throw new Error('binding volumes: context deadline exceeded');
    await sleep(50);
  }
}
