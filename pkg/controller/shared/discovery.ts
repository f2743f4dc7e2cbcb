// Discovery for the controllers that act on every resource (garbage collector, namespace, resource quota): the
// preferred version of each group from /api and /apis, and its resources with their verbs (client-go's
// ServerPreferredResources). A group whose list fails is reported, not fatal (upstream's partial discovery).
import type { Client, ResourceRef } from '../../client/index.js';

export interface DiscoveredResource extends ResourceRef {
  kind: string;
  verbs: string[];
}

export interface Discovery {
  resources: DiscoveredResource[];
  /** groupVersion -> the error of its resource list. */
  failed: Map<string, string>;
}

interface APIResource { name: string; kind: string; namespaced: boolean; verbs?: string[] }
interface APIGroup { name: string; preferredVersion?: { groupVersion: string; version: string }; versions: { groupVersion: string; version: string }[] }

export const groupVersionOf = (r: { group: string; version: string }): string => (r.group ? `${r.group}/${r.version}` : r.version);

export async function discoverPreferredResources(client: Client, signal?: AbortSignal): Promise<Discovery> {
  // a group-version that cannot be read is a failure of this discovery at once, not after retries (client-go's
  // discovery retries only what the server asks to be retried): the namespace controller reports it and tries again
  const get = <T>(path: string, maxRetries?: number): Promise<T> => client.rest.request<T>({ method: 'GET', path, signal, accept: 'application/json', maxRetries });
  const [core, groups] = await Promise.all([get<{ versions: string[] }>('/api'), get<{ groups: APIGroup[] }>('/apis')]);
  const gvs: { group: string; version: string }[] = (core.versions ?? []).slice(0, 1).map((version) => ({ group: '', version }));
  for (const g of groups.groups ?? []) {
    const v = g.preferredVersion ?? g.versions[0];
    if (v) gvs.push({ group: g.name, version: v.version });
  }
  const failed = new Map<string, string>();
  const lists = await Promise.all(gvs.map(async (gv) => {
    const path = gv.group ? `/apis/${gv.group}/${gv.version}` : `/api/${gv.version}`;
    try {
      const list = await get<{ resources?: APIResource[] }>(path, 0);
      return (list.resources ?? []).filter((r) => !r.name.includes('/')).map((r): DiscoveredResource => ({
        group: gv.group, version: gv.version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [],
      }));
    } catch (e) {
      if (signal?.aborted) throw e;
      failed.set(groupVersionOf(gv), (e as Error).message);
      return [];
    }
  }));
  return { resources: lists.flat(), failed };
}

export const hasVerbs = (r: DiscoveredResource, ...verbs: string[]): boolean => verbs.every((v) => r.verbs.includes(v));

/** The key of a resource by group and kind (owner references name a kind, in any version of its group). */
export const groupKind = (apiVersion: string | undefined, kind: string | undefined): string => {
  const av = apiVersion ?? '';
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : '';
  return `${kind ?? ''}.${group}`;
};
