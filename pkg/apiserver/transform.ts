// Representations other than the object itself: Table (what kubectl get prints) and
// PartialObjectMetadata (what metadata-only informers and the garbage collector read).
import type { KubeObject, ResourceType } from '../../api/types.js';
import { badRequest } from '../apimachinery/errors.js';
import { printerFor } from '../registry/printers/index.js';
import type { OutputFormat } from './negotiation.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export function includeObjectOf(v: unknown): IncludeObject {
  if (v === undefined || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw badRequest(`includeObject: Unsupported value: ${JSON.stringify(v)}: supported values: "Metadata", "None", "Object"`);
}

export const partialObjectMetadata = (obj: KubeObject, version = 'v1'): KubeObject => ({
  kind: 'PartialObjectMetadata',
  apiVersion: `meta.k8s.io/${version}`,
  metadata: obj.metadata ?? {},
});

export function partialObjectMetadataList(items: KubeObject[], meta: ListMeta, version = 'v1'): KubeObject {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: meta,
    items: items.map((o) => partialObjectMetadata(o, version)),
  };
}

export interface TableOptions {
  includeObject: IncludeObject;
  /** Leave out columnDefinitions (watch events after the first). */
  noHeaders?: boolean;
  now: Date;
}

/** `served`: a subresource's own group and kind, printed by `rt`'s table convertor (toTable's rt is its resource). */
export function toTable(rt: ResourceType, items: KubeObject[], meta: ListMeta, format: OutputFormat, opts: TableOptions, served?: ResourceType): KubeObject {
  const printer = printerFor(rt.group, rt.plural, rt.version, served);
  const version = format.asVersion ?? 'v1';
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: meta,
    columnDefinitions: opts.noHeaders ? [] : printer.columns,
    rows: (printer.order?.(items) ?? items).map((obj) => {
      const row: Record<string, unknown> = { cells: printer.cells(obj, opts.now) };
      const conditions = printer.conditions?.(obj);
      if (conditions) row.conditions = conditions;
      if (opts.includeObject === 'Object') row.object = obj;
      else if (opts.includeObject === 'Metadata') row.object = partialObjectMetadata(obj, version);
      return row;
    }),
  };
}
