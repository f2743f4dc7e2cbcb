// Metadata-only lists and informers (client-go's metadata package and metadatainformer): the apiserver answers with
// PartialObjectMetadata, so the garbage collector, the namespace controller and operators that only need an object's
// labels or owners cache no spec or status.
import type { Client } from './client.js';
import { SharedIndexInformer, type InformerOptions } from './informer.js';
import type { ListerWatcher } from './reflector.js';
import type { KubeList, ListOptions, PartialObjectMetadata, ResourceRef } from './resource.js';

/** A metadata-only list of one resource (all namespaces when namespace is unset). */
export const listMetadata = (client: Client, ref: ResourceRef, o: ListOptions & { namespace?: string } = {}): Promise<KubeList<PartialObjectMetadata>> =>
  client.resource(ref, o.namespace).metadataOnly().list(o);

export const metadataListerWatcher = (client: Client, ref: ResourceRef, namespace?: string): ListerWatcher<PartialObjectMetadata> => {
  const rc = client.resource(ref, namespace).metadataOnly();
  return { list: (o) => rc.list(o), watch: (o) => rc.watch(o) };
};

/** An informer over PartialObjectMetadata of one resource (managedFields dropped). */
export const metadataInformer = (client: Client, ref: ResourceRef, o: InformerOptions<PartialObjectMetadata> = {}): SharedIndexInformer<PartialObjectMetadata> =>
  new SharedIndexInformer(metadataListerWatcher(client, ref), {
    name: ref.group ? `${ref.resource}.${ref.group}` : ref.resource,
    dropManagedFields: true,
    ...o,
  });
