// The OpenAPI 3.0 documents of /openapi/v3/<path>: one per group-version ("api/v1", "apis/apps/v1"), one per
// group ("apis/apps"), the roots "api", "apis" and "version", and the non-resource services served (non-resource.ts),
// as a 1.32 apiserver publishes them.
import { REF_PREFIX, type Definitions } from '../../../api/schema.js';
import type { GroupVersion } from '../../../api/types.js';
import { namedGroups } from '../discovery/groups.js';
import { collectRefs, definitionPool, reachableDefinitions, type DefinitionPool } from './definitions.js';
import { groupInfix, groupTag, operationInfix, versionTag } from './names.js';
import { logsPaths, openIdConfigurationPaths, openIdKeysetPaths } from './non-resource.js';
import { resourcePaths, type PathItem } from './operations.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export interface OpenApiV3Document {
  components: { schemas: Definitions };
  info: { title: 'Kubernetes'; version: 'unversioned' };
  openapi: '3.0.0';
  paths: Record<string, PathItem>;
}

export interface OpenApiOptions {
  /**
   * Whether a group-version's PATCH operations accept application/strategic-merge-patch+json. Upstream offers it
   * for built-in kinds only; kubectl apply computes a strategic patch exactly where the spec lists it.
   */
  strategicMergePatch?: (gv: GroupVersion) => boolean;
  /** Whether /logs is served (--enable-logs-handler). */
  logs?: boolean;
  /** Whether the service account issuer's discovery documents are served. */
  serviceAccountIssuer?: boolean;
}

/** Built-in kinds are named io.k8s.api.* (custom resources are named by their reversed group). */
export const isBuiltin = (gv: GroupVersion): boolean =>
  gv.resources.every((r) => r.definition.startsWith('io.k8s.api.') || r.definition.startsWith('io.k8s.apiextensions-apiserver.'));

const document = (paths: Record<string, PathItem>, pool: Definitions): OpenApiV3Document => {
  const sortedPaths: Record<string, PathItem> = {};
  for (const p of Object.keys(paths).sort()) sortedPaths[p] = paths[p]!;
  const { schemas } = reachableDefinitions(collectRefs(paths, new Set()), pool);
  return { components: { schemas }, info: { title: 'Kubernetes', version: 'unversioned' }, openapi: '3.0.0', paths: sortedPaths };
};

const discoveryGet = (operationId: string, description: string, tag: string, definition: string): PathItem => ({
  get: {
    description, operationId, tags: [tag],
    responses: {
      '200': { description: 'OK', content: {
        'application/json': { schema: { $ref: REF_PREFIX + definition } },
        'application/yaml': { schema: { $ref: REF_PREFIX + definition } },
      } },
      '401': { description: 'Unauthorized' },
    },
  },
});

/** "api/v1" or "apis/apps/v1": every resource's operations plus the version's own discovery path. */
export const groupVersionDocument = (gv: GroupVersion, pool: DefinitionPool, options: OpenApiOptions = {}) => {
  const strategicMergePatch = (options.strategicMergePatch ?? isBuiltin)(gv);
  const root = gv.group === '' ? `/api/${gv.version}/` : `/apis/${gv.group}/${gv.version}/`;
  const paths: Record<string, PathItem> = {
    [root]: discoveryGet(`get${operationInfix(gv.group, gv.version)}APIResources`, 'get available resources',
      versionTag(gv.group, gv.version), `${META}APIResourceList`),
  };
  for (const r of gv.resources) {
    Object.assign(paths, resourcePaths(r, { definitionOf: pool.definitionOf, strategicMergePatch }));
  }
  return document(paths, pool.definitions);
};

/** "apis/<group>": the group's discovery path. */
export const groupDocument = (group: string, pool: DefinitionPool) =>
  document({
    [`/apis/${group}/`]: discoveryGet(`get${groupInfix(group)}APIGroup`, 'get information of a group',
      groupTag(group), `${META}APIGroup`),
  }, pool.definitions);

/** The key of a group-version's document under /openapi/v3. */
export const documentKey = (group: string, version: string): string =>
  group === '' ? `api/${version}` : `apis/${group}/${version}`;

/** Every document /openapi/v3 lists, keyed by its path there, built from one served set. */
export const buildOpenApiV3Documents = (gvs: GroupVersion[], options: OpenApiOptions = {}) => {
  const pool = definitionPool(gvs);
  const docs = new Map<string, OpenApiV3Document>();
  const served = gvs.filter((gv) => gv.resources.length > 0);
  if (served.some((gv) => gv.group === '')) {
    docs.set('api', document({
      '/api/': discoveryGet('getCoreAPIVersions', 'get available API versions', 'core', `${META}APIVersions`),
    }, pool.definitions));
  }
  docs.set('apis', document({
    '/apis/': discoveryGet('getAPIVersions', 'get available API versions', 'apis', `${META}APIGroupList`),
  }, pool.definitions));
  for (const g of namedGroups(gvs)) docs.set(`apis/${g.name}`, groupDocument(g.name, pool));
  for (const gv of served) docs.set(documentKey(gv.group, gv.version), groupVersionDocument(gv, pool, options));
  docs.set('version', document({
    '/version/': discoveryGet('getCodeVersion', 'get the version information for this server', 'version',
      'io.k8s.apimachinery.pkg.version.Info'),
  }, pool.definitions));
  if (options.logs) docs.set('logs', document(logsPaths(), pool.definitions));
  if (options.serviceAccountIssuer) {
    docs.set('.well-known/openid-configuration', document(openIdConfigurationPaths(), pool.definitions));
    docs.set('openid/v1/jwks', document(openIdKeysetPaths(), pool.definitions));
  }
  return new Map([...docs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
};
