// The OpenAPI v3 document of metrics.k8s.io/v1beta1, as every extension apiserver serves one (/openapi/v3, an index
// of hashed URLs, and the group-version's document); the aggregator serves it next to the apiserver's own, so that
// `kubectl explain nodemetrics` works. The kinds and every definition they reference, from api/.
import { createHash } from 'node:crypto';
import { definitions as metaDefinitions } from '../../api/meta/v1/index.js';
import { refsOf } from '../../api/meta/v1/refs.js';
import { definitions as metricsDefinitions } from '../../api/metrics/v1beta1/index.js';
import type { Definitions } from '../../api/schema.js';

const GROUP_VERSION_PATH = 'apis/metrics.k8s.io/v1beta1';

const P = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.';

/** kubectl explain finds a resource's kind by its GET operations, as upstream's documents have them. */
function paths(): Record<string, unknown> {
  const get = (kind: string, schema: string, action: 'get' | 'list', op: string) => ({
    get: {
      operationId: op, 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': { group: 'metrics.k8s.io', version: 'v1beta1', kind },
      responses: { 200: { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${P}${schema}` } } } } },
    },
  });
  const base = `/${GROUP_VERSION_PATH}`;
  return {
    [`${base}/namespaces/{namespace}/pods`]: get('PodMetrics', 'PodMetricsList', 'list', 'listMetricsV1beta1NamespacedPodMetrics'),
    [`${base}/namespaces/{namespace}/pods/{name}`]: get('PodMetrics', 'PodMetrics', 'get', 'readMetricsV1beta1NamespacedPodMetrics'),
    [`${base}/nodes`]: get('NodeMetrics', 'NodeMetricsList', 'list', 'listMetricsV1beta1NodeMetrics'),
    [`${base}/nodes/{name}`]: get('NodeMetrics', 'NodeMetrics', 'get', 'readMetricsV1beta1NodeMetrics'),
    [`${base}/pods`]: get('PodMetrics', 'PodMetricsList', 'list', 'listMetricsV1beta1PodMetricsForAllNamespaces'),
  };
}

function document(): { body: string; hash: string } {
  const all: Definitions = { ...metaDefinitions, ...metricsDefinitions };
  const schemas: Definitions = {};
  const pending = Object.keys(metricsDefinitions);
  while (pending.length) {
    const name = pending.pop()!;
    if (schemas[name] || !all[name]) continue;
    schemas[name] = all[name];
    pending.push(...refsOf(all[name]));
  }
  const body = JSON.stringify({ openapi: '3.0.0', info: { title: 'metrics-server', version: 'v1beta1' }, paths: paths(), components: { schemas } });
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

let cached: { body: string; hash: string } | undefined;

/** The body of /openapi/v3 or of the group-version's document, or undefined for another path. */
export function openApiV3(path: string): string | undefined {
  cached ??= document();
  if (path === '/openapi/v3') return JSON.stringify({ paths: { [GROUP_VERSION_PATH]: { serverRelativeURL: `/openapi/v3/${GROUP_VERSION_PATH}?hash=${cached.hash}` } } });
  if (path === `/openapi/v3/${GROUP_VERSION_PATH}`) return cached.body;
  return undefined;
}
