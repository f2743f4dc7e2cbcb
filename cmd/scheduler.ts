// `mini-kube scheduler`: kube-scheduler's flags and KubeSchedulerConfiguration in, the scheduler out, leader-elected
// on the Lease kube-system/kube-scheduler unless --leader-elect=false; SIGINT/SIGTERM release the lease and stop.
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { checkSecureServingFlags, secureServingFlags, startComponentServing } from './component-serving.js';
import { exitWithFlagError, flag, FlagError, parseOrExit } from './flags.js';
import { startHeapReclaimer } from './heap-reclaimer.js';
import { onShutdownSignal } from './signals.js';

/** The self-signed serving pair's name in --cert-dir, as upstream's. */
const SERVING_PAIR = 'kube-scheduler';

const summary = 'Runs the scheduler: assigns pending pods to nodes, as kube-scheduler does, configured by a KubeSchedulerConfiguration.';

export const schedulerFlags = {
  kubeconfig: flag.string('', 'Path to a kubeconfig file (default: the config file\'s clientConnection.kubeconfig, $KUBECONFIG or ~/.kube/config)'),
  config: flag.string('', 'Path to a KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1)'),
  'leader-elect': flag.bool(true, 'Elect a leader before scheduling (Lease kube-system/kube-scheduler)'),
  'leader-elect-lease-duration': flag.string('', 'Lease duration of leader election (Go duration, default 15s)'),
  'leader-elect-renew-deadline': flag.string('', 'Renew deadline of the leader (default 10s)'),
  'leader-elect-retry-period': flag.string('', 'Retry period of candidates (default 2s)'),
  'leader-elect-resource-namespace': flag.string('', 'Namespace of the Lease (default kube-system)'),
  'leader-elect-resource-name': flag.string('', 'Name of the Lease (default kube-scheduler)'),
  'kube-api-qps': flag.int(0, 'Client requests per second (default: clientConnection.qps, 50)'),
  'kube-api-burst': flag.int(0, 'Client burst (default: clientConnection.burst, 100)'),
  ...secureServingFlags(10259, '/healthz, /livez, /readyz, /metrics, /configz', SERVING_PAIR),
  v: flag.int(0, 'Log verbosity (4: debug)'),
};

const duration = (name: string, text: string): number => {
  const ms = parseGoDurationMs(text);
  if (ms === undefined) throw new FlagError(`invalid argument "${text}" for "--${name}" flag: not a duration`);
  return ms;
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v, given } = parseOrExit('scheduler', summary, argv, schedulerFlags);
  const logger = pino({ name: 'scheduler', level: v.v >= 4 ? 'debug' : 'info' }, pino.destination(2));
  const { Client, componentUserAgent, LeaderElector } = await import('../pkg/client/index.js');
  const { Scheduler, loadConfiguration, defaultConfiguration, ConfigError } = await import('../pkg/scheduler/index.js');
  let config;
  try {
    config = v.config ? await loadConfiguration(v.config) : defaultConfiguration();
    const le = config.leaderElection;
    if (given.has('leader-elect')) le.leaderElect = v['leader-elect'];
    if (v['leader-elect-lease-duration']) le.leaseDurationMs = duration('leader-elect-lease-duration', v['leader-elect-lease-duration']);
    if (v['leader-elect-renew-deadline']) le.renewDeadlineMs = duration('leader-elect-renew-deadline', v['leader-elect-renew-deadline']);
    if (v['leader-elect-retry-period']) le.retryPeriodMs = duration('leader-elect-retry-period', v['leader-elect-retry-period']);
    if (v['leader-elect-resource-namespace']) le.resourceNamespace = v['leader-elect-resource-namespace'];
    if (v['leader-elect-resource-name']) le.resourceName = v['leader-elect-resource-name'];
    checkSecureServingFlags(v);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof FlagError) exitWithFlagError('scheduler', new FlagError((e as Error).message));
    throw e;
  }
  const cc = config.clientConnection;
  if (v['kube-api-qps']) cc.qps = v['kube-api-qps'];
  if (v['kube-api-burst']) cc.burst = v['kube-api-burst'];
  if (v.kubeconfig) cc.kubeconfig = v.kubeconfig;
  const { componentMetrics } = await import('../pkg/client/component-metrics.js');
  const { registerSchedulerMetrics } = await import('../pkg/scheduler/metrics.js');
  const { schedulerConfigz } = await import('../pkg/scheduler/configz.js');
  const metrics = componentMetrics();
  const clientOptions = { qps: cc.qps, burst: cc.burst, userAgent: componentUserAgent('kube-scheduler', 'scheduler'), metrics: metrics.client };
  // as kube-scheduler's createClients: events go through a client of their own (its own rate limiter and connections)
  const [client, eventClient] = await Promise.all([Client.fromKubeconfig(cc.kubeconfig || undefined, clientOptions), Client.fromKubeconfig(cc.kubeconfig || undefined, clientOptions)]);
  const identity = `${hostname()}_${randomUUID()}`;
  let synced = false;
  const observer = registerSchedulerMetrics(metrics.registry, () => scheduler.queue);
  const scheduler = new Scheduler({ client, eventClient, config, logger, observer, onSynced: () => { synced = true; } });
  const stop = new AbortController();
  let done: Promise<void>;
  let elector: InstanceType<typeof LeaderElector> | undefined;
  if (config.leaderElection.leaderElect) {
    const le = config.leaderElection;
    done = (elector = new LeaderElector({
      leases: client.leases(le.resourceNamespace), name: le.resourceName, identity, logger, metrics: metrics.leader,
      leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs,
      callbacks: {
        onStartedLeading: (signal) => { logger.info({ identity }, 'started leading'); return scheduler.run(signal); },
        onNewLeader: (id) => logger.info({ leader: id }, 'new leader'),
        onStoppedLeading: () => {
          logger.info('stopped leading');
          // a leader that lost its lease exits, as upstream does: its caches are no longer trusted
          if (!stop.signal.aborted) process.exit(1);
        },
      },
    })).run(stop.signal);
  } else {
    done = scheduler.run(stop.signal);
  }
  // as upstream's: healthz and readyz fail when the lease is ours but was not renewed for 20 s past its duration
  const leaderCheck = elector ? [{ name: 'leaderElection', check: () => elector.check(20_000) === undefined }] : [];
  void startComponentServing(v, {
    client, logger, registry: metrics.registry, signal: stop.signal, configz: () => schedulerConfigz(config),
    health: { healthz: leaderCheck, livez: [], readyz: [...leaderCheck, { name: 'sched-handler-sync', check: () => synced || (elector !== undefined && !elector.isLeader()) }] },
    pairName: SERVING_PAIR,
  });
  startHeapReclaimer({ logger });
  onShutdownSignal(async () => {
    stop.abort();
    // releasing the lease and flushing events get a few seconds, not their retries against a gone apiserver
    await Promise.race([done, new Promise((r) => setTimeout(r, 5000).unref())]);
    await Promise.all([client.close(), eventClient.close()]);
  });
  await done.catch((err: unknown) => { logger.error({ err }, 'scheduler failed'); process.exit(1); });
};
