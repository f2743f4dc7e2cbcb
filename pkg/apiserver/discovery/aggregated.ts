// Aggregated discovery (apidiscovery.k8s.io v2 / v2beta1): /api or /apis with every group, version and
// resource in one document, which is how kubectl 1.27+ discovers in a single round trip.
import type { GroupVersion, ResourceType, Subresource } from '../../../api/types.js';
import { coreVersions, namedGroups } from './groups.js';

export type AggregatedVersion = 'v2' | 'v2beta1';

interface ResponseKind {
  group: string;
  version: string;
  kind: string;
}

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: ResponseKind;
  verbs: string[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: ResponseKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  resources: APIResourceDiscovery[];
  freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: string;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}

const byName = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

const subresource = (s: Subresource): APISubresourceDiscovery => ({
  subresource: s.name,
  responseKind: { group: s.group, version: s.version, kind: s.kind },
  verbs: [...s.verbs].sort(),
});

const resource = (r: ResourceType): APIResourceDiscovery => ({
  resource: r.plural,
  responseKind: { group: r.group, version: r.version, kind: r.kind },
  scope: r.namespaced ? 'Namespaced' : 'Cluster',
  singularResource: r.singular,
  verbs: [...r.verbs].sort(),
  ...(r.shortNames?.length ? { shortNames: [...r.shortNames] } : {}),
  ...(r.categories?.length ? { categories: [...r.categories] } : {}),
  ...(r.subresources?.length
    ? { subresources: r.subresources.map(subresource).sort(byName((x) => x.subresource)) }
    : {}),
});

const version = (gv: GroupVersion): APIVersionDiscovery => ({
  version: gv.version,
  resources: gv.resources.map(resource).sort(byName((x) => x.resource)),
  freshness: gv.stale ? 'Stale' : 'Current',
});

const list = (items: APIGroupDiscovery[], v: AggregatedVersion): APIGroupDiscoveryList => ({
  kind: 'APIGroupDiscoveryList',
  apiVersion: `apidiscovery.k8s.io/${v}`,
  metadata: {},
  items,
});

/** GET /api: one nameless group holding the core versions. */
export const buildAggregatedCore = (gvs: GroupVersion[], v: AggregatedVersion): APIGroupDiscoveryList => {
  const versions = coreVersions(gvs);
  return list(versions.length ? [{ metadata: { creationTimestamp: null }, versions: versions.map(version) }] : [], v);
};

/** GET /apis: every named group, versions in preference order (the first is preferred). */
export const buildAggregatedApis = (gvs: GroupVersion[], v: AggregatedVersion): APIGroupDiscoveryList =>
  list(namedGroups(gvs).map((g) => ({
    metadata: { name: g.name, creationTimestamp: null },
    versions: g.versions.map(version),
  })), v);
