// The shape of one resource's table printer and the column building blocks every printer shares.
// Column names, types and formats follow upstream's pkg/printers/internalversion; the server always
// fills every cell (wide ones too) and kubectl hides priority-1 columns unless asked for -o wide.
import type { KubeObject } from '../../../api/types.js';
import { age } from './duration.js';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** A row condition as meta.k8s.io/v1 TableRowCondition carries it. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface Printer {
  columns: TableColumnDefinition[];
  cells(obj: KubeObject, now: Date): unknown[];
  /** Extra row conditions (upstream marks finished pods "Completed"); absent when the kind has none. */
  conditions?(obj: KubeObject): TableRowCondition[] | undefined;
  /** The order of a list's rows, for a kind whose list printer sorts them (flow schemas); else as listed. */
  order?(items: KubeObject[]): KubeObject[];
}

type ColumnType = 'string' | 'integer' | 'boolean' | 'date';

/** A column shown by plain `kubectl get`. */
export const column = (name: string, description: string, type: ColumnType = 'string'): TableColumnDefinition => ({
  name,
  type,
  format: '',
  description,
  priority: 0,
});

/** A column shown only by `kubectl get -o wide`. */
export const wideColumn = (name: string, description: string, type: ColumnType = 'string'): TableColumnDefinition => ({
  ...column(name, description, type),
  priority: 1,
});

export const nameColumn: TableColumnDefinition = {
  ...column('Name', 'The unique name of the object within its namespace (or the cluster).'),
  format: 'name',
};

export const ageColumn = column('Age', 'Time since the object was created (its creationTimestamp).');

/** The wide Containers and Images columns of everything that embeds a pod template. */
export const containerColumns: TableColumnDefinition[] = [
  wideColumn('Containers', 'Names of each container in the template.'),
  wideColumn('Images', 'Images referenced by each container in the template.'),
];

export const selectorColumn = wideColumn('Selector', 'The label selector that picks the pods this object manages.');

/** Name first, Age last: the most common shape, with the kind's own columns in between. */
export function simplePrinter(
  columns: TableColumnDefinition[],
  middle: (obj: KubeObject, now: Date) => unknown[],
): Printer {
  return {
    columns: [nameColumn, ...columns, ageColumn],
    cells: (obj, now) => [obj.metadata?.name ?? '', ...middle(obj, now), age(obj, now)],
  };
}
