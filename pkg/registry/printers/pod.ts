// Pods (NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES) and pod templates.
import type { KubeObject } from '../../../api/types.js';
import { summarizePod } from './pod-status.js';
import { ageColumn, column, nameColumn, type Printer, type TableRowCondition, wideColumn } from './types.js';
import { age } from './duration.js';
import { containerCells, formatLabels } from './format.js';

const orNone = (s: string | undefined): string => s || '<none>';

function readinessGates(pod: KubeObject): string {
  const gates: { conditionType: string }[] = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions: { type: string; status: string }[] = pod.status?.conditions ?? [];
  const met = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${met}/${gates.length}`;
}

const finished: Record<string, TableRowCondition[]> = {
  Succeeded: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
  Failed: [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }],
};

export const podPrinter: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'How many times the containers of this pod restarted, and how long ago the last restart was.'),
    ageColumn,
    wideColumn('IP', 'The IP address allocated to the pod.'),
    wideColumn('Node', 'The node the pod is bound to.'),
    wideColumn('Nominated Node', 'The node the scheduler nominated for this pod after preempting others.'),
    wideColumn('Readiness Gates', 'How many of the pod readiness gates are met.'),
  ],
  cells(pod, now) {
    const { ready, status, restarts } = summarizePod(pod, now);
    return [
      pod.metadata?.name ?? '',
      ready,
      status,
      restarts,
      age(pod, now),
      orNone(pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP), // v1 podIP alone converts to podIPs[0]
      orNone(pod.spec?.nodeName),
      orNone(pod.status?.nominatedNodeName),
      readinessGates(pod),
    ];
  },
  conditions: (pod) => finished[pod.status?.phase as string],
};

export const podTemplatePrinter: Printer = {
  columns: [
    nameColumn,
    column('Containers', 'Names of each container in the template.'),
    column('Images', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'The labels of the pod template.'),
  ],
  cells: (obj) => [
    obj.metadata?.name ?? '',
    ...containerCells(obj.template?.spec?.containers),
    formatLabels(obj.template?.metadata?.labels),
  ],
};
