// /metrics in Prometheus text format: upstream's request counters and latency histogram by verb,
// group, resource and code, the in-flight gauges, the open long-running requests (watches, streams), and the
// process's own figures.
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry } from 'prom-client';
import { withProcessMetrics } from '../client/process-metrics.js';
import { RequestMetrics } from './request-metrics.js';
import { anyMethod } from './restful-paths.js';
import type { FlowControl, FlowCounts } from './flowcontrol/apf.js';

export interface ApiMetrics {
  registry: Registry;
  /** The requests in flight now, read-only and mutating: called as each starts and ends. */
  observeInflight(readonly: number, mutating: number): void;
}

/** Upstream's long-running subresources (besides watches): streams and proxies. */
const LONGRUNNING_SUBRESOURCES = new Set(['proxy', 'log', 'exec', 'attach', 'portforward']);

export function registerMetrics(app: FastifyInstance): ApiMetrics {
  const registry = withProcessMetrics(new Registry());
  // upstream's buckets
  const requests = new RequestMetrics(registry, [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60]);
  // As upstream's watermarks: the highest count seen in each one-second period, published when it ends (a scrape
  // reads the last whole second); per request only two comparisons.
  const now = { readOnly: 0, mutating: 0 };
  const high = { ...now };
  const lastSecond = { ...now };
  const period = setInterval(() => {
    Object.assign(lastSecond, high);
    Object.assign(high, now);
  }, 1_000).unref();
  app.addHook('onClose', (_app, done) => { clearInterval(period); done(); });
  new Gauge({
    name: 'apiserver_current_inflight_requests', help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
    labelNames: ['request_kind'] as const, registers: [registry],
    collect() {
      this.set({ request_kind: 'readOnly' }, lastSecond.readOnly);
      this.set({ request_kind: 'mutating' }, lastSecond.mutating);
    },
  });
  const longrunning = new Gauge({
    name: 'apiserver_longrunning_requests', help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const, registers: [registry],
  });
  // callback hooks: they run on every request and never wait
  app.addHook('preHandler', (request, reply, done) => {
    const i = request.info;
    if (i?.isResourceRequest && (i.verb === 'watch' || LONGRUNNING_SUBRESOURCES.has(i.subresource))) {
      const scope = i.name ? 'resource' : i.namespace ? 'namespace' : 'cluster';
      const g = longrunning.labels(i.verb.toUpperCase(), i.apiGroup, i.apiVersion, i.resource, i.subresource, scope, 'apiserver');
      g.inc();
      reply.raw.once('close', () => g.dec());
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    done();
    const i = request.info;
    if (!i?.isResourceRequest) return;
    requests.observe(i.verb.toUpperCase(), i.apiGroup, i.apiVersion, i.resource, i.subresource, reply.statusCode, reply.elapsedTime / 1000);
  });
  // upstream's Prometheus handler on the plain mux answers every method alike
  anyMethod(app, '/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  return {
    registry,
    observeInflight(readonly, mutating) {
      now.readOnly = readonly;
      now.mutating = mutating;
      if (readonly > high.readOnly) high.readOnly = readonly;
      if (mutating > high.mutating) high.mutating = mutating;
    },
  };
}

/**
 * Series read when scraped (nothing per request): kubernetes_build_info, and apiserver_storage_objects, the objects
 * stored per resource (`pods`, `deployments.apps`), as upstream's count of each resource's keys.
 */
export function registerStorageMetrics(registry: Registry, version: Record<string, string>, resources: () => { resource: string; count: () => number }[]): void {
  new Gauge({
    name: 'kubernetes_build_info', help: 'A metric with a constant \'1\' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.',
    labelNames: ['major', 'minor', 'git_version', 'git_commit', 'git_tree_state', 'build_date', 'go_version', 'compiler', 'platform'] as const, registers: [registry],
  }).set({
    major: version.major, minor: version.minor, git_version: version.gitVersion, git_commit: version.gitCommit, git_tree_state: version.gitTreeState,
    build_date: version.buildDate, go_version: version.goVersion, compiler: version.compiler, platform: version.platform,
  }, 1);
  new Gauge({
    name: 'apiserver_storage_objects', help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
    labelNames: ['resource'] as const, registers: [registry],
    collect() {
      this.reset();
      const seen = new Set<string>();
      for (const r of resources()) if (!seen.has(r.resource)) { seen.add(r.resource); this.set({ resource: r.resource }, r.count()); }
    },
  });
}

/** Upstream's apiserver_flowcontrol_* series, read from API Priority and Fairness when scraped (nothing per request). */
export function registerFlowControlMetrics(registry: Registry, source: () => ReturnType<FlowControl['counts']>): void {
  const labelNames = ['priority_level', 'flow_schema'] as const;
  const flows = (each: (f: FlowCounts) => void): void => { for (const f of source().flows) each(f); };
  new Gauge({
    name: 'apiserver_flowcontrol_current_executing_requests', help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
    labelNames, registers: [registry], collect() { this.reset(); flows((f) => this.set({ priority_level: f.priorityLevel, flow_schema: f.flowSchema }, f.executing)); },
  });
  new Gauge({
    name: 'apiserver_flowcontrol_current_inqueue_requests', help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
    labelNames, registers: [registry], collect() { this.reset(); flows((f) => this.set({ priority_level: f.priorityLevel, flow_schema: f.flowSchema }, f.waiting)); },
  });
  new Counter({
    name: 'apiserver_flowcontrol_dispatched_requests_total', help: 'Number of requests executed by API Priority and Fairness subsystem',
    labelNames, registers: [registry], collect() { this.reset(); flows((f) => this.inc({ priority_level: f.priorityLevel, flow_schema: f.flowSchema }, f.dispatched)); },
  });
  new Counter({
    name: 'apiserver_flowcontrol_rejected_requests_total', help: 'Number of requests rejected by API Priority and Fairness subsystem',
    labelNames: [...labelNames, 'reason'] as const, registers: [registry],
    collect() {
      this.reset();
      flows((f) => { for (const [reason, n] of Object.entries(f.rejected)) this.inc({ priority_level: f.priorityLevel, flow_schema: f.flowSchema, reason }, n); });
    },
  });
  new Gauge({
    name: 'apiserver_flowcontrol_nominal_limit_seats', help: 'Nominal number of execution seats configured for each priority level',
    labelNames: ['priority_level'] as const, registers: [registry], collect() { this.reset(); for (const l of source().seats) this.set({ priority_level: l.priorityLevel }, l.seats); },
  });
}
