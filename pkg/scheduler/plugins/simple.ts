// The small default plugins: PrioritySort, SchedulingGates, NodeName, NodeUnschedulable, NodePorts, ImageLocality,
// DefaultBinder (each as upstream's plugin of that name).
import { normalizeImage } from '../cache.js';
import {
  Code, MAX_NODE_SCORE, QueueingHint, SKIP, errorStatus, status, unresolvable, unschedulable, type BindPlugin, type ClusterEventWithHint,
  type FilterPlugin, type Handle, type PreEnqueuePlugin, type PreFilterPlugin, type QueueSortPlugin, type ScorePlugin,
} from '../framework/interface.js';
import { portsConflict, podInfoOf, type HostPort } from '../node-info.js';
import { podPriority, tolerationsTolerate, type Node, type Pod } from '../types.js';
import { nodeTurnedOk } from './node-affinity.js';

export const prioritySort = (): QueueSortPlugin => ({
  name: 'PrioritySort',
  less: (a, b) => {
    const pa = podPriority(a.pod);
    const pb = podPriority(b.pod);
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  },
});

export const schedulingGates = (): PreEnqueuePlugin => ({
  name: 'SchedulingGates',
  events: () => GATE_EVENTS,
  preEnqueue: (pod) => {
    const gates = (pod.spec?.schedulingGates ?? []) as { name: string }[];
    return gates.length ? status(Code.UnschedulableAndUnresolvable, `waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`) : null;
  },
});

const GATE_EVENTS: ClusterEventWithHint[] = [{
  event: { resource: 'Pod', action: 'Update' },
  hint: (_pod, _old, pod) => ((pod?.spec?.schedulingGates ?? []) as unknown[]).length ? QueueingHint.QueueSkip : QueueingHint.Queue,
}];

const NODE_NAME_EVENTS = nodeTurnedOk((pod, node) => !pod.spec?.nodeName || pod.spec.nodeName === node.metadata?.name);

export const nodeName = (): FilterPlugin => ({
  name: 'NodeName',
  events: () => NODE_NAME_EVENTS,
  filter: (_s, pod, node) =>
    pod.spec?.nodeName && pod.spec.nodeName !== node.name ? unresolvable("node(s) didn't match the requested node name") : null,
});

const UNSCHEDULABLE_TAINT = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
const schedulableFor = (pod: Pod, node: Node): boolean => !node.spec?.unschedulable || tolerationsTolerate(pod.spec?.tolerations, UNSCHEDULABLE_TAINT);
const UNSCHEDULABLE_EVENTS = nodeTurnedOk(schedulableFor);

export const nodeUnschedulable = (): FilterPlugin => ({
  name: 'NodeUnschedulable',
  events: () => UNSCHEDULABLE_EVENTS,
  filter: (_s, pod, node) => (schedulableFor(pod, node.node!) ? null : unresolvable('node(s) were unschedulable')),
});

/** A deleted assigned pod matters when it held a host port the pod wants; a new node always may. */
const PORT_EVENTS: ClusterEventWithHint[] = [
  {
    event: { resource: 'AssignedPod', action: 'Delete' },
    hint: (pod, gone) => {
      const freed = gone ? podInfoOf(gone).ports : [];
      return podInfoOf(pod).ports.some((w) => freed.some((f) => portsConflict(f, w))) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    },
  },
  { event: { resource: 'Node', action: 'Add' } },
];

const PORTS_KEY = 'PreFilterNodePorts';

export const nodePorts = (): PreFilterPlugin & FilterPlugin => ({
  name: 'NodePorts',
  events: () => PORT_EVENTS,
  preFilter: (state, pod) => {
    const ports = podInfoOf(pod).ports;
    if (!ports.length) return SKIP;
    state.write(PORTS_KEY, ports);
    return null;
  },
  filter: (state, _pod, node) => {
    const want = state.read<HostPort[]>(PORTS_KEY) ?? [];
    for (const w of want) {
      if (node.usedPorts.some((u) => portsConflict(u, w))) return unschedulable("node(s) didn't have free ports for the requested pod ports");
    }
    return null;
  },
});

const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

const imageKeys = new WeakMap<object, string[]>();
const imagesOf = (pod: Pod): string[] => {
  let keys = imageKeys.get(pod);
  if (!keys) {
    keys = ([...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])] as { image?: string }[]).filter((c) => c.image).map((c) => normalizeImage(c.image!));
    imageKeys.set(pod, keys);
  }
  return keys;
};

export const imageLocality = (_args: unknown, handle: Handle): ScorePlugin => ({
  name: 'ImageLocality',
  score: (_s, pod, node) => {
    if (!handle.cache.images.size) return 0;
    const total = handle.cache.nodeCount() || 1;
    let sum = 0;
    for (const key of imagesOf(pod)) {
      const st = handle.cache.images.get(key);
      if (st?.nodes.has(node.name)) sum += st.size * (st.nodes.size / total);
    }
    const max = MAX_CONTAINER_THRESHOLD * Math.max(1, (pod.spec?.containers ?? []).length);
    const clamped = Math.min(Math.max(sum, MIN_THRESHOLD), max);
    return Math.floor((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (max - MIN_THRESHOLD));
  },
});

export const defaultBinder = (_args: unknown, handle: Handle): BindPlugin => ({
  name: 'DefaultBinder',
  bind: async (_s, pod: Pod, node) => {
    try {
      await handle.client.pods(pod.metadata?.namespace).bind(pod.metadata!.name!, node, { uid: pod.metadata?.uid });
      return null;
    } catch (e) {
      return errorStatus(e);
    }
  },
});
