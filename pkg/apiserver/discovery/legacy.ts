// The unaggregated (v1) discovery documents, shaped field for field like a 1.32 apiserver's.
import { apiVersionOf, type GroupVersion, type ResourceType, type Subresource } from '../../../api/types.js';
import { coreVersions, namedGroups, storageVersionHash, type ServedGroup } from './groups.js';

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  kind?: 'APIGroup';
  apiVersion?: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

const forDiscovery = (gv: GroupVersion): GroupVersionForDiscovery =>
  ({ groupVersion: apiVersionOf(gv.group, gv.version), version: gv.version });

/** GET /api */
export const buildApiVersions = (gvs: GroupVersion[], serverAddress: string) => ({
  kind: 'APIVersions',
  versions: coreVersions(gvs).map((gv) => gv.version),
  serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
});

const apiGroup = (g: ServedGroup): APIGroup => ({
  name: g.name,
  versions: g.versions.map(forDiscovery),
  preferredVersion: forDiscovery(g.versions[0]!),
});

/** GET /apis */
export const buildApiGroupList = (gvs: GroupVersion[]) => ({
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: namedGroups(gvs).map(apiGroup),
});

/** GET /apis/<group>, or undefined when the group is not served. */
export const buildApiGroup = (gvs: GroupVersion[], group: string): APIGroup | undefined => {
  const g = namedGroups(gvs).find((x) => x.name === group);
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) };
};

const subresourceEntry = (r: ResourceType, s: Subresource): APIResource => ({
  name: `${r.plural}/${s.name}`,
  singularName: '',
  namespaced: r.namespaced,
  // Upstream names the group and version only where they differ from the list's (deployments/scale -> autoscaling/v1).
  ...(s.group !== r.group || s.version !== r.version ? { group: s.group, version: s.version } : {}),
  kind: s.kind,
  verbs: sorted(s.verbs),
});

const resourceEntry = (r: ResourceType): APIResource => ({
  name: r.plural,
  singularName: r.singular,
  namespaced: r.namespaced,
  kind: r.kind,
  verbs: sorted(r.verbs),
  ...(r.shortNames?.length ? { shortNames: [...r.shortNames] } : {}),
  ...(r.categories?.length ? { categories: [...r.categories] } : {}),
  // only a resource kept in storage has one (upstream's StorageVersionProvider, a registry Store): every such one watches
  ...(r.verbs.includes('watch') ? { storageVersionHash: storageVersionHash(r.group, r.version, r.kind) } : {}),
});

/** The resources and subresources of one group-version as APIResource entries, sorted by name as upstream. */
export const apiResources = (gv: GroupVersion): APIResource[] =>
  gv.resources
    .flatMap((r) => [resourceEntry(r), ...(r.subresources ?? []).map((s) => subresourceEntry(r, s))])
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** GET /api/v1 and /apis/<group>/<version>. The legacy core list carries no apiVersion upstream. */
export const buildApiResourceList = (gv: GroupVersion) => ({
  kind: 'APIResourceList',
  ...(gv.group === '' ? {} : { apiVersion: 'v1' }),
  groupVersion: apiVersionOf(gv.group, gv.version),
  resources: apiResources(gv),
});
