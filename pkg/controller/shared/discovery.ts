// Discovery for the controllers that act on every resource (garbage collector, namespace, resource quota), as
// client-go's ServerPreferredResources over aggregated discovery: /api and /apis in one document each, every resource
// in the first version of its group that has it (the preferred version first). A group-version served Stale is
// reported as client-go's StaleGroupVersionError and left out, not fatal (upstream's partial discovery).
import type { Client, ResourceRef } from '../../client/index.js';

export interface DiscoveredResource extends ResourceRef {
  kind: string;
  verbs: string[];
}

export interface Discovery {
  resources: DiscoveredResource[];
  /** groupVersion -> why its resources are missing. */
  failed: Map<string, string>;
}

interface APIVersionDiscovery {
  version: string;
  freshness?: 'Current' | 'Stale';
  resources?: { resource: string; responseKind?: { kind?: string }; scope: string; verbs?: string[] }[];
}
interface APIGroupDiscoveryList { items?: { metadata?: { name?: string }; versions?: APIVersionDiscovery[] }[] }

/** What client-go's discovery client asks for: aggregated discovery (v2) first. */
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

export const groupVersionOf = (r: { group: string; version: string }): string => (r.group ? `${r.group}/${r.version}` : r.version);

export async function discoverPreferredResources(client: Client, signal?: AbortSignal): Promise<Discovery> {
  const get = (path: string): Promise<APIGroupDiscoveryList> =>
    client.rest.request<APIGroupDiscoveryList>({ method: 'GET', path, signal, accept: AGGREGATED });
  const [core, groups] = await Promise.all([get('/api'), get('/apis')]);
  const failed = new Map<string, string>();
  const seen = new Set<string>();
  const resources: DiscoveredResource[] = [];
  for (const g of [...(core.items ?? []), ...(groups.items ?? [])]) {
    const group = g.metadata?.name ?? '';
    for (const v of g.versions ?? []) {
      const gv = groupVersionOf({ group, version: v.version });
      if (v.freshness === 'Stale') {
        failed.set(gv, `stale GroupVersion discovery: ${gv}`);
        continue;
      }
      for (const r of v.resources ?? []) {
        if (!r.responseKind?.kind || seen.has(`${r.resource}.${group}`)) continue;
        seen.add(`${r.resource}.${group}`);
        resources.push({ group, version: v.version, resource: r.resource, kind: r.responseKind.kind, namespaced: r.scope === 'Namespaced', verbs: r.verbs ?? [] });
      }
    }
  }
  return { resources, failed };
}

export const hasVerbs = (r: DiscoveredResource, ...verbs: string[]): boolean => verbs.every((v) => r.verbs.includes(v));

/** The key of a resource by group and kind (owner references name a kind, in any version of its group). */
export const groupKind = (apiVersion: string | undefined, kind: string | undefined): string => {
  const av = apiVersion ?? '';
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : '';
  return `${kind ?? ''}.${group}`;
};
