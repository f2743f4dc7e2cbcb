// Table output of the metrics kinds (kubectl get nodes.metrics.k8s.io), with upstream metrics-server's columns:
// Name, one column per resource of the usage (cpu, memory; a pod's summed over its containers), Window.
import { addQuantity, formatQuantity, parseQuantity, type Quantity } from '../apimachinery/quantity.js';
import type { KubeObject } from '../client/index.js';

type Usage = Record<string, string>;

/** The first media type of the Accept header asks for a meta.k8s.io Table. */
export const wantsTable = (accept: string | undefined): boolean =>
  (accept ?? '').split(',').some((t) => /;\s*as=Table/.test(t) && /;\s*g=meta\.k8s\.io/.test(t));

const usageOf = (obj: KubeObject): Usage => {
  const o = obj as KubeObject & { usage?: Usage; containers?: { usage: Usage }[] };
  if (o.usage) return o.usage;
  const sum: Record<string, Quantity> = {};
  for (const c of o.containers ?? []) {
    for (const [k, v] of Object.entries(c.usage)) sum[k] = sum[k] ? addQuantity(sum[k], parseQuantity(v)) : parseQuantity(v);
  }
  return Object.fromEntries(Object.entries(sum).map(([k, q]) => [k, formatQuantity(q)]));
};

/** includeObject: None leaves rows without objects, Object embeds them whole, Metadata (default) their metadata. */
const rowObject = (obj: KubeObject, include: string | null): Record<string, unknown> | undefined =>
  include === 'None' ? undefined : include === 'Object' ? obj : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };

export function toTable(obj: KubeObject, includeObject: string | null): Record<string, unknown> {
  const items = 'items' in obj ? (obj.items as KubeObject[]) : [obj];
  let names: string[] | undefined;
  let columnDefinitions: Record<string, unknown>[] | null = null;
  const rows = items.map((item) => {
    const usage = usageOf(item);
    if (!names) {
      names = Object.keys(usage).sort();
      columnDefinitions = [
        { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
        ...names.map((name) => ({ name, type: 'string', format: 'quantity', description: '', priority: 0 })),
        { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
      ];
    }
    const object = rowObject(item, includeObject);
    return { cells: [item.metadata?.name, ...names.map((n) => usage[n] ?? '0'), (item as { window?: string }).window], ...(object ? { object } : {}) };
  });
  return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, columnDefinitions, rows: rows.length ? rows : null };
}
