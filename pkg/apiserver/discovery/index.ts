// Discovery: /api, /apis, /api/v1, /apis/<group>, /apis/<group>/<version>, legacy and aggregated.
export { registerDiscovery, type DiscoveryOptions } from './routes.js';
export { buildAggregatedApis, buildAggregatedCore, type AggregatedVersion, type APIGroupDiscoveryList } from './aggregated.js';
export { apiResources, buildApiGroup, buildApiGroupList, buildApiResourceList, buildApiVersions } from './legacy.js';
export { negotiateDiscovery, aggregatedContentType } from './negotiate.js';
export { storageVersionHash, compareVersions } from './groups.js';
export { hashGroupVersions, type GroupVersionSource } from './source.js';
