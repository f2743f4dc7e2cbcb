// The apiserver: fastify over TLS (HTTP/2 with HTTP/1.1 fallback), the request chain, discovery,
// OpenAPI, health, and every resource path, over registries backed by the store.
import { mkdir, readFile } from 'node:fs/promises';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { builtinGroupVersions } from '../../api/index.js';
import type { GroupVersion } from '../../api/types.js';
import { createRegistries } from '../registry/index.js';
import { openLevelStore } from '../storage/leveldb/store.js';
import { createMemoryStore } from '../storage/memory/store.js';
import { withEncryptionAtRest } from '../storage/encryption/config.js';
import type { Store } from '../storage/interface.js';
import { FlowControl } from './flowcontrol/apf.js';
import { ensureFlowControlObjects, maintainFlowSchemaStatus } from './flowcontrol/bootstrap.js';
import { registerComponentStatuses } from './handlers/component-statuses.js';
import { createAudit } from './audit.js';
import { loadPolicy } from './audit-policy.js';
import { logSink, webhookSink, type AuditSink } from './audit-sinks.js';
import { installChain } from './chain.js';
import { startAdmission } from './admission.js';
import { createAuthentication } from './authentication.js';
import { createAuthorization } from './authorization.js';
import { DEFAULT_KUBELET_ADDRESS_TYPES, setKubeletClient } from './handlers/kubelet-proxy.js';
import { setUpgradeHead } from './upgrade.js';
import { markStreamedBody } from './streamed-body.js';
import { registerReviews } from './handlers/reviews.js';
import type { ApiServerConfig, RunningApiServer } from './config.js';
import { registerDiscovery } from './discovery/routes.js';
import { installErrorHandler } from './errors.js';
import './fastify-types.js';
import { handleResource } from './handlers/resource.js';
import { discoveryPaths, registerIndex } from './index-paths.js';
import { registerLogsHandler } from './logs-handler.js';
import { isCustomResource } from './handlers/subresources.js';
import { underRestfulRoot } from './restful-paths.js';
import { logCheck, PostStartHooks, registerHealth, VERSION_INFO } from './health.js';
import { registerFlowControlMetrics, registerMetrics, registerStorageMetrics } from './metrics.js';
import { registerOpenApiV3 } from './openapi/v3-routes.js';
import { registerOpenApiV2 } from './openapi/v2-routes.js';
import { createCustomResources } from '../registry/customresources/controller.js';
import { bootstrap, maintainBootstrapObjects } from './bootstrap.js';
import { maintainIdentityLease } from './identity-lease.js';
import { startEventExpiry } from './event-ttl.js';
import { servedGroupVersions } from './runtime-config.js';
import { servingTls } from './tls-options.js';
import { GracefulShutdown } from './graceful-shutdown.js';
import { authenticationConfigMap, createAggregator, publishAuthenticationConfigMap } from './aggregator/index.js';
import { initializersFeature } from './initializers.js';
import { loadCel } from '../apimachinery/cel/index.js';
import { withCel } from './cel-loading.js';
import { installJsonFormatting } from './json-format.js';

/**
 * The post-start hooks upstream's kube-apiserver has for what this one does at start too, in upstream's order: each
 * health check passes once its step is done.
 */
const POST_START_HOOKS = [
  'start-apiextensions-informers', 'start-apiextensions-controllers', 'crd-informer-synced', 'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller', 'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector', 'start-legacy-token-tracking-controller', 'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes', 'priority-and-fairness-config-producer', 'bootstrap-controller',
  'apiservice-status-local-available-controller', 'apiservice-status-remote-available-controller', 'apiservice-registration-controller',
  'kube-apiserver-autoregistration',
];

/** Upstream's limit on a request body. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** The compiler factory of route schemas, which no route of the apiserver has. */
const noRouteSchemas = () => (): never => { throw new Error('apiserver routes declare no schemas'); };

export async function startApiServer(config: ApiServerConfig): Promise<RunningApiServer> {
  const log = config.logger;
  const started = Date.now();
  // the served API first: a --runtime-config it refuses stops the start before the store is opened
  const initializers = initializersFeature(config);
  const pspPlugin = config.enableAdmissionPlugins.includes('PodSecurityPolicy') && !config.disableAdmissionPlugins.includes('PodSecurityPolicy');
  const api = { ...initializers.api, groupVersions: servedGroupVersions(initializers.api.groupVersions, config.runtimeConfig ?? new Map(), pspPlugin) };
  const plainStore = await openStore(config);
  const store = config.encryptionProviderConfig
    ? await withEncryptionAtRest(plainStore, config.encryptionProviderConfig, builtinGroupVersions.flatMap((gv) => gv.resources))
      .catch(async (err: unknown) => { await plainStore.close(); throw err; })
    : plainStore;
  const registries = await createRegistries({
    store, ...api, initializers: initializers.on,
    serviceClusterIpRange: config.serviceClusterIpRange, watchCacheHistorySize: config.watchCacheHistorySize,
    allowPrivileged: config.allowPrivileged, featureGates: config.featureGates,
    serviceNodePortRange: config.serviceNodePortRange,
  });
  const authz = await createAuthorization(registries, {
    modes: config.authorizationModes, policyFile: config.authorizationPolicyFile, onError: (err, what) => log.error({ err }, what),
    webhook: config.authorizationWebhookConfigFile ? {
      configFile: config.authorizationWebhookConfigFile, version: config.authorizationWebhookVersion,
      authorizedTtlMs: config.authorizationWebhookCacheAuthorizedTtlMs, unauthorizedTtlMs: config.authorizationWebhookCacheUnauthorizedTtlMs,
    } : undefined,
  });
  const admissionStopped = new AbortController();
  registries.setAdmission(withCel(registries, authz.withEscalationChecks(await startAdmission(registries, {
    enable: initializers.enableAdmissionPlugins, disable: config.disableAdmissionPlugins, configFile: config.admissionControlConfigFile, logger: log,
    authorizer: authz.authorizer, tolerationSeconds: config.defaultTolerationSeconds, stopped: admissionStopped.signal,
  }))));

  const [key, cert, ca] = await Promise.all([
    readFile(config.tlsPrivateKeyFile), readFile(config.tlsCertFile), config.clientCaFile ? readFile(config.clientCaFile) : undefined,
  ]);
  const app = Fastify({
    http2: true,
    https: { allowHTTP1: true, key, cert, ca, requestCert: Boolean(ca), rejectUnauthorized: false, honorCipherOrder: true, ...servingTls(config.tlsMinVersion, config.tlsCipherSuites) },
    bodyLimit: MAX_BODY_BYTES,
    loggerInstance: log,
    // Requests are recorded by audit, not logged one by one.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is the server's logger itself: the few lines logged per request name their URL, and a child
    // logger made for every request (to bind fastify's request counter) was a cost of every request
    childLoggerFactory: (logger) => logger,
    // Kubernetes names may hold characters fastify would otherwise reject in a route.
    routerOptions: { maxParamLength: 2048 },
    // No route declares a schema (the handlers decode bodies, after authorization): fastify's ajv and
    // fast-json-stringify compilers are never asked for, and not loading them is ~10 ms of every start.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
  }) as unknown as FastifyInstance;
  // the built-in groups served have a REST router of their own
  const restfulRoot = (path: string): boolean =>
    underRestfulRoot(path, (group) => registries.all().some((reg) => reg.rt.group === group && !isCustomResource(reg)));
  installErrorHandler(app, restfulRoot);
  const requestTimeoutMs = config.requestTimeoutMs ?? 60_000;
  const shutdown = new GracefulShutdown(app, {
    delayMs: config.shutdown?.delayMs ?? 0, sendRetryAfter: config.shutdown?.sendRetryAfter ?? false, drainTimeoutMs: requestTimeoutMs,
  });
  app.decorate('responseCompression', config.featureGates.APIResponseCompression !== false);
  app.decorate('minRequestTimeoutSeconds', config.minRequestTimeoutSeconds ?? 1800);
  setKubeletClient(app, {
    certFile: join(config.dataDir, 'pki', 'apiserver-kubelet-client.crt'), keyFile: join(config.dataDir, 'pki', 'apiserver-kubelet-client.key'),
    preferredAddressTypes: DEFAULT_KUBELET_ADDRESS_TYPES,
    ...config.kubeletClient,
  });
  const authn = await createAuthentication(config, registries);
  const sinks: AuditSink[] = [];
  if (config.auditLogPath) sinks.push(logSink({ path: config.auditLogPath, ...config.auditLog }));
  if (config.auditWebhook) sinks.push(await webhookSink({ ...config.auditWebhook, logger: log.child({ component: 'audit-webhook' }) }));
  const audit = createAudit(sinks, config.auditPolicyFile ? await loadPolicy(config.auditPolicyFile) : undefined);
  const metrics = registerMetrics(app);
  const serverConcurrencyLimit = config.maxRequestsInflight + config.maxMutatingRequestsInflight;
  // with both limits 0 (no limit), there is nothing to share out
  const flowControl = config.enablePriorityAndFairness && serverConcurrencyLimit > 0
    // a request waits in a queue for at most a quarter of the request timeout, as upstream's
    ? new FlowControl({ registries, serverConcurrencyLimit, waitLimitMs: requestTimeoutMs / 4, onError: (err) => log.warn({ err }, 'API Priority and Fairness configuration not applied') })
    : undefined;
  const stopPriorityAndFairness = flowControl?.start();
  if (flowControl) registerFlowControlMetrics(metrics.registry, () => flowControl.counts());
  // every served version of a resource is the same stored objects: counted once, by group and resource
  registerStorageMetrics(metrics.registry, VERSION_INFO, () => registries.all()
    .filter((r) => r.rt.verbs.includes('watch')) // stored resources (not reviews, bindings or component statuses)
    .map((r) => ({ resource: r.rt.group ? `${r.rt.plural}.${r.rt.group}` : r.rt.plural, count: () => r.count() })));
  installChain(app, {
    flowControl,
    shutdown: shutdown.onRequest,
    requestTimeoutMs,
    authenticator: authn.authenticator,
    authorizer: authz.authorizer,
    audit,
    maxRequestsInflight: config.maxRequestsInflight,
    maxMutatingRequestsInflight: config.maxMutatingRequestsInflight,
    onInflight: metrics.observeInflight,
  });
  installJsonFormatting(app);
  // Bodies are read raw and decoded by the handlers, after authorization, as JSON or YAML.
  app.removeAllContentTypeParsers();
  const rawBody = (_req: unknown, body: Buffer | string, done: (err: null, body: Buffer | string) => void): void => done(null, body);
  // The types clients send, named: fastify remembers a named type's parser, but looks a type up anew (parses the
  // header, tries every pattern) on every request that only the catch-all takes.
  app.addContentTypeParser(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json-patch+json',
    'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'], { parseAs: 'buffer' }, rawBody);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, rawBody);
  app.addHook('onRequest', (request, _reply, done) => { markStreamedBody(request.raw); done(); });

  // Custom resources come and go: the served set is published anew by the CRD controller on every change.
  const customResources = createCustomResources({
    registries, builtin: api.groupVersions, watchCacheHistorySize: config.watchCacheHistorySize,
    onError: (err, what) => log.warn({ err }, what),
  });
  await customResources.start();
  const source = (): GroupVersion[] => customResources.groupVersions();
  const aggregator = createAggregator({
    registries, builtin: api.groupVersions, onError: (err, what) => log.warn({ err, component: 'aggregator' }, what),
    proxyClient: config.proxyClientCertFile && config.proxyClientKeyFile
      ? { cert: await readFile(config.proxyClientCertFile, 'utf8'), key: await readFile(config.proxyClientKeyFile, 'utf8') } : undefined,
  });
  // After the chain: aggregated requests are authenticated and authorized here, then proxied unread.
  app.addHook('onRequest', aggregator.onRequest);
  registerDiscovery(app, () => aggregator.merge(source()), { underRestfulRoot: restfulRoot });
  const nonResource = { logs: !!config.logsDir, serviceAccountIssuer: !!authn.tokenIssuer };
  registerOpenApiV3(app, source, { ...nonResource, extra: () => aggregator.openApiV3() });
  // kubectl 1.27 and 1.28 read /openapi/v2 (protobuf) before create, apply and explain.
  registerOpenApiV2(app, source, { ...nonResource, extra: () => aggregator.openApiV2() });
  const hooks = new PostStartHooks(POST_START_HOOKS);
  const logHealth = logCheck((done) => log.flush(done));
  const healthPaths = registerHealth(app, {
    base: [{ name: 'ping', check: () => true }, logHealth, { name: 'etcd', check: () => plainStore.healthy?.() ?? true }],
    hooks: hooks.checks,
    shutdown: shutdown.readyzCheck,
  });
  hooks.finished('start-apiextensions-informers', 'start-apiextensions-controllers', 'crd-informer-synced');
  const lookup = {
    registry: (g: string, v: string, r: string) => registries.get(g, v, r),
    underRestfulRoot: restfulRoot,
  };
  if (flowControl) {
    app.get('/debug/api_priority_and_fairness/dump_priority_levels', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(flowControl.dumpPriorityLevels()));
  }
  if (config.logsDir) registerLogsHandler(app, config.logsDir);
  registerIndex(app, () => [
    ...discoveryPaths(aggregator.merge(source())), ...healthPaths, '/metrics', '/openapi/v2', '/openapi/v3', '/openapi/v3/',
    ...(config.logsDir ? ['/logs'] : []), ...(authn.tokenIssuer ? ['/.well-known/openid-configuration', '/openid/v1/jwks'] : []),
  ]);
  registerReviews(app, { authorizer: authz.authorizer, rules: authz.rules, decoder: registries.decoder });
  registerComponentStatuses(app, registries, plainStore);
  let externalUrl = '';
  // upstream's ExternalHost: --external-hostname, else the advertised address and port (the default jwks_uri's host)
  authn.register(app, () => (config.externalHostname ? `https://${config.externalHostname}` : externalUrl));
  // Past its deadline a request's client has had its 504: what the handler meets after that is logged, not answered
  // (upstream's post-timeout activity).
  const resource = (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => handleResource(lookup, request, reply).catch((err: unknown) => {
    if (!request.deadline?.expired || !reply.sent) throw err;
    request.log.info({ url: request.url, method: request.method, reason: (err as Error).message }, 'post-timeout activity');
  });
  app.all('/api/*', resource);
  app.all('/apis/*', resource);

  // HTTP/1.1 upgrades (exec, attach, port-forward over SPDY or WebSocket) arrive on 'upgrade' with the raw socket;
  // they go through the same routes and chain with a response bound to that socket.
  app.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    setUpgradeHead(req, head);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.once('finish', () => socket.end());
    app.routing(req, res);
  });
  await app.listen({ host: config.bindAddress, port: config.securePort });
  const port = (app.server.address() as { port: number }).port;
  const advertised = config.advertiseAddress || (config.bindAddress === '0.0.0.0' || config.bindAddress === '::' ? '127.0.0.1' : config.bindAddress);
  externalUrl = `https://${advertised.includes(':') ? `[${advertised}]` : advertised}:${port}`;
  await bootstrap(registries, { ip: advertised, port });
  const stopBootstrapControllers = maintainBootstrapObjects(registries, { ip: advertised, port },
    (err) => log.warn({ err }, 'unable to sync the kubernetes service or a system namespace'), config.kubernetesServiceIntervalMs);
  hooks.finished('start-system-namespaces-controller', 'scheduling/bootstrap-system-priority-classes', 'bootstrap-controller', 'start-legacy-token-tracking-controller');
  await aggregator.start();
  hooks.finished('apiservice-status-local-available-controller', 'apiservice-status-remote-available-controller', 'apiservice-registration-controller', 'kube-apiserver-autoregistration');
  await publishAuthenticationConfigMap(registries, await authenticationConfigMap(config.clientCaFile, config.requestHeader));
  hooks.finished('start-cluster-authentication-info-controller');
  await Promise.all([authz.bootstrap(), ensureFlowControlObjects(registries)]);
  hooks.finished('rbac/bootstrap-roles', 'priority-and-fairness-config-producer');
  const stopFlowControl = maintainFlowSchemaStatus(registries, (err) => log.warn({ err }, 'FlowSchema status not updated'));
  const events = registries.get('', 'v1', 'events');
  const stopEventExpiry = events ? startEventExpiry(events, config.eventTtlMs ?? 3_600_000, log) : () => {};
  const stopIdentityLease = maintainIdentityLease(registries, (err) => log.warn({ err }, 'apiserver identity lease not renewed'), { gcEveryMs: config.identityLeaseGcIntervalMs });
  hooks.finished('start-kube-apiserver-identity-lease-controller', 'start-kube-apiserver-identity-lease-garbage-collector');
  log.info({ port, ms: Date.now() - started }, 'apiserver ready');
  // the first write that needs CEL would otherwise wait for it; a second on, not at once, where loading it (~50 ms
  // of compiled code run on the event loop) held back the answers to the first requests of a ready server
  const celWarmUp = setTimeout(() => loadCel().catch((err: unknown) => log.error({ err }, 'cannot load the CEL runtime')), 1_000);

  return {
    port,
    url: externalUrl,
    close: async () => {
      clearTimeout(celWarmUp);
      stopBootstrapControllers();
      stopIdentityLease();
      logHealth.stop();
      // requests in flight finish first, with everything they use still running; then the watches end
      await shutdown.run(() => {
        admissionStopped.abort();
        customResources.stop();
        registries.stop();
      });
      await authz.stop();
      stopFlowControl();
      stopEventExpiry();
      stopPriorityAndFairness?.();
      aggregator.stop();
      await app.close();
      await store.close();
      await audit.close();
      await authn.close();
    },
  };
}

async function openStore(config: ApiServerConfig): Promise<Store> {
  const compaction = config.compactionKeepRevisions === undefined && config.compactionIntervalMs === undefined ? undefined
    : { keepRevisions: config.compactionKeepRevisions ?? 10_000, intervalMs: config.compactionIntervalMs ?? 60_000 };
  if (config.storageBackend === 'memory') return createMemoryStore({ compaction });
  if (config.storageBackend === 'etcd3') {
    const etcd = config.etcd ?? { servers: ['http://127.0.0.1:2379'], prefix: '/registry' };
    const read = (f: string | undefined): Promise<Buffer | undefined> => (f ? readFile(f) : Promise.resolve(undefined));
    const [ca, cert, key] = await Promise.all([read(etcd.caFile), read(etcd.certFile), read(etcd.keyFile)]);
    // Loaded only when chosen: the gRPC client costs the default backend's start nothing.
    const { openEtcdStore } = await import('../storage/etcd3/store.js');
    return openEtcdStore({
      servers: etcd.servers, prefix: etcd.prefix, compaction, logger: config.logger.child({ component: 'etcd3' }),
      tls: ca ? { ca, cert, key } : undefined,
    });
  }
  const dir = join(config.dataDir, 'store');
  await mkdir(dir, { recursive: true });
  return openLevelStore(dir, { compaction });
}
