// The metadata-only client and informer (client-go's metadata package): lists and watches that ask the apiserver
// for PartialObjectMetadata, so the garbage collector and the namespace controller cache only object meta.
import type { KubeObject } from '../../../api/types.js';
import {
  SharedIndexInformer, apiPrefix, decodeWatch, type Client, type InformerOptions, type KubeList, type ListOptions,
  type ListerWatcher, type ResourceRef, type Watch, type WatchEvent, type WatchOptions,
} from '../../client/index.js';

export const PARTIAL_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
export const PARTIAL_METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

const collectionPath = (ref: ResourceRef, namespace?: string): string =>
  `${apiPrefix(ref.group, ref.version)}${ref.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${ref.resource}`;

const query = (o: ListOptions): Record<string, string | number | undefined> => ({
  labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, limit: o.limit, continue: o.continue,
  resourceVersion: o.resourceVersion, resourceVersionMatch: o.resourceVersionMatch, timeoutSeconds: o.timeoutSeconds,
});

/** A metadata-only list of one resource (all namespaces when namespace is unset). */
export const listMetadata = (client: Client, ref: ResourceRef, o: ListOptions & { namespace?: string } = {}): Promise<KubeList> =>
  client.rest.request<KubeList>({ method: 'GET', path: collectionPath(ref, o.namespace), query: query(o), accept: PARTIAL_METADATA_LIST, signal: o.signal });

export async function watchMetadata(client: Client, ref: ResourceRef, o: WatchOptions = {}): Promise<Watch> {
  const res = await client.rest.stream({
    method: 'GET', path: collectionPath(ref), signal: o.signal, accept: PARTIAL_METADATA,
    query: { ...query(o), watch: true, allowWatchBookmarks: o.allowWatchBookmarks || undefined },
  });
  let stopped = false;
  const events = decodeWatch(res.body);
  return {
    stop: () => { stopped = true; res.close(); },
    async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent> {
      try {
        for await (const ev of events) yield ev;
      } catch (e) {
        if (!stopped) throw e;
      } finally {
        res.close();
      }
    },
  };
}

export const metadataListerWatcher = (client: Client, ref: ResourceRef): ListerWatcher => ({
  list: (o) => listMetadata(client, ref, o),
  watch: (o) => watchMetadata(client, ref, o),
});

/** An informer over PartialObjectMetadata of one resource (managedFields dropped). */
export const metadataInformer = (client: Client, ref: ResourceRef, o: InformerOptions = {}): SharedIndexInformer =>
  new SharedIndexInformer(metadataListerWatcher(client, ref), {
    name: ref.group ? `${ref.resource}.${ref.group}` : ref.resource,
    transform: (obj: KubeObject) => {
      if (obj.metadata?.managedFields) delete obj.metadata.managedFields;
      return obj;
    },
    ...o,
  });
