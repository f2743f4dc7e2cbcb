// /metrics in Prometheus text format: upstream's request counters and latency histogram by verb,
// group, resource and code, the in-flight gauges, and the process's own figures.
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ApiMetrics {
  registry: Registry;
  inflight: Gauge<'request_kind'>;
}

export function registerMetrics(app: FastifyInstance): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'apiserver_request_total', help: 'Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'code'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'apiserver_request_duration_seconds', help: 'Response latency distribution in seconds for each verb, group, version, resource and subresource.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource'] as const, registers: [registry],
    buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
  });
  const inflight = new Gauge({
    name: 'apiserver_current_inflight_requests', help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
    labelNames: ['request_kind'] as const, registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const i = request.info;
    if (!i?.isResourceRequest) return;
    const labels = { verb: i.verb.toUpperCase(), group: i.apiGroup, version: i.apiVersion, resource: i.resource, subresource: i.subresource };
    requests.inc({ ...labels, code: String(reply.statusCode) });
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  return { registry, inflight };
}
