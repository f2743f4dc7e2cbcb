// Workload controllers: deployments, replica sets, stateful sets, daemon sets, controller revisions and
// replication controllers.
import type { KubeObject } from '../../../api/types.js';
import {
  ageColumn,
  column,
  containerColumns,
  nameColumn,
  type Printer,
  selectorColumn,
  simplePrinter,
} from './types.js';
import { age } from './duration.js';
import { controllerOf, formatLabels, formatLabelSelector, selectorString, templateContainerCells } from './format.js';

const int = (n: unknown): number => (typeof n === 'number' ? n : 0);

/** A printer whose wide columns (containers, images and maybe a selector) come after Age. */
function withTemplateColumns(
  columns: Printer['columns'],
  middle: (obj: KubeObject) => unknown[],
  selector?: (obj: KubeObject) => string,
): Printer {
  return {
    columns: [nameColumn, ...columns, ageColumn, ...containerColumns, ...(selector ? [selectorColumn] : [])],
    cells: (obj, now) => [
      obj.metadata?.name ?? '',
      ...middle(obj),
      age(obj, now),
      ...templateContainerCells(obj.spec),
      ...(selector ? [selector(obj)] : []),
    ],
  };
}

const specSelector = (obj: KubeObject): string => formatLabelSelector(obj.spec?.selector);

export const deploymentPrinter = withTemplateColumns(
  [
    column('Ready', 'Ready pods out of the desired replicas.'),
    column('Up-to-date', 'Replicas that run the latest pod template.'),
    column('Available', 'Replicas available to serve for at least minReadySeconds.'),
  ],
  (d) => [
    `${int(d.status?.readyReplicas)}/${int(d.spec?.replicas)}`,
    int(d.status?.updatedReplicas),
    int(d.status?.availableReplicas),
  ],
  // unlike the others, deployments print an empty selector as "" and a broken one as "<invalid>"
  (d) => selectorString(d.spec?.selector) ?? '<invalid>',
);

const replicaColumns = [
  column('Desired', 'The number of replicas asked for.', 'integer'),
  column('Current', 'The number of replicas that exist.', 'integer'),
  column('Ready', 'The number of replicas that are ready.', 'integer'),
];
const replicaCells = (obj: KubeObject): unknown[] => [
  int(obj.spec?.replicas),
  int(obj.status?.replicas),
  int(obj.status?.readyReplicas),
];

export const replicaSetPrinter = withTemplateColumns(replicaColumns, replicaCells, specSelector);

export const replicationControllerPrinter = withTemplateColumns(replicaColumns, replicaCells, (rc) =>
  formatLabels(rc.spec?.selector),
);

export const statefulSetPrinter = withTemplateColumns(
  [column('Ready', 'Ready pods out of the desired replicas.')],
  (s) => [`${int(s.status?.readyReplicas)}/${int(s.spec?.replicas)}`],
);

export const daemonSetPrinter = withTemplateColumns(
  [
    column('Desired', 'The number of nodes that should run the daemon pod.', 'integer'),
    column('Current', 'The number of nodes that run at least one daemon pod.', 'integer'),
    column('Ready', 'The number of nodes whose daemon pod is ready.', 'integer'),
    column('Up-to-date', 'The number of nodes that run the latest daemon pod.', 'integer'),
    column('Available', 'The number of nodes whose daemon pod is available.', 'integer'),
    column('Node Selector', 'The node selector of the daemon pod template.'),
  ],
  (ds) => {
    const s = ds.status ?? {};
    return [
      int(s.desiredNumberScheduled),
      int(s.currentNumberScheduled),
      int(s.numberReady),
      int(s.updatedNumberScheduled),
      int(s.numberAvailable),
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
    ];
  },
  specSelector,
);

/** "kind.group/name" (lower-case) of the controlling owner, "<none>" without one. */
export function controllerName(obj: KubeObject): string {
  const ref = controllerOf(obj);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
  const groupKind = group ? `${ref.kind}.${group}` : ref.kind;
  return groupKind ? `${groupKind.toLowerCase()}/${ref.name}` : ref.name;
}

export const controllerRevisionPrinter = simplePrinter(
  [column('Controller', 'The object that owns this revision.'), column('Revision', 'The revision number.')],
  (cr) => [controllerName(cr), int(cr.revision)],
);
