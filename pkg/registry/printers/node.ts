// Nodes: STATUS ("Ready", "NotReady", "Unknown", plus ",SchedulingDisabled"), ROLES from the
// node-role.kubernetes.io/<role> and kubernetes.io/role labels, VERSION, and the wide system-info columns.
import type { KubeObject } from '../../../api/types.js';
import { age } from './duration.js';
import { ageColumn, column, nameColumn, type Printer, wideColumn } from './types.js';

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

export function nodeStatus(node: KubeObject): string {
  const conditions: { type: string; status: string }[] = node.status?.conditions ?? [];
  // Only the Ready condition counts; the last one of that type wins, as upstream's condition map does.
  const ready = conditions.filter((c) => c.type === 'Ready').at(-1);
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

export function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata?.labels ?? {})) {
    if (key.startsWith(ROLE_PREFIX) && key.length > ROLE_PREFIX.length) roles.add(key.slice(ROLE_PREFIX.length));
    else if (key === ROLE_LABEL && value !== '') roles.add(value);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function address(node: KubeObject, type: string): string {
  const addresses: { type: string; address: string }[] = node.status?.addresses ?? [];
  return addresses.find((a) => a.type === type)?.address ?? '<none>';
}

export const nodePrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'The status of the node.'),
    column('Roles', 'The roles of the node.'),
    ageColumn,
    column('Version', 'The kubelet version the node reports.'),
    wideColumn('Internal-IP', 'The first internal IP address of the node.'),
    wideColumn('External-IP', 'The first external IP address of the node.'),
    wideColumn('OS-Image', 'The OS image the node reports.'),
    wideColumn('Kernel-Version', 'The kernel version the node reports.'),
    wideColumn('Container-Runtime', 'The container runtime and its version the node reports.'),
  ],
  cells(node, now) {
    const info = node.status?.nodeInfo ?? {};
    return [
      node.metadata?.name ?? '',
      nodeStatus(node),
      nodeRoles(node),
      age(node, now),
      info.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      info.osImage || '<unknown>',
      info.kernelVersion || '<unknown>',
      info.containerRuntimeVersion || '<unknown>',
    ];
  },
};
