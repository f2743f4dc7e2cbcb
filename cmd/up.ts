// `mini-kube up`: certificates, then every component as its own OS process, then one line once the cluster answers.
import { mkdir, readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
// not the pki barrel: a start on a data dir with its certificates loads no X.509 library
import { ensureMetricsServerPki, ensurePki, type CertKeyPaths } from '../pkg/pki/ensure-pki.js';
import { writeKubeconfig } from '../pkg/pki/kubeconfig.js';
import { serverUrl, writeAdminKubeconfig } from './admin-kubeconfig.js';
import { controlPlane, type ComponentSpec } from './components.js';
import { claimDataDir, dataDirInUseMessage, storeInUse } from './data-dir-lock.js';
import { ensureDefaultStorageClass } from './default-storage-class.js';
import { applyClusterDnsObjects, CLUSTER_DOMAIN } from './cluster-dns-addon.js';
import { applyClusterInfoObjects } from './cluster-info-addon.js';
import { applyMetricsServerObjects } from './metrics-server-addon.js';
import { exitWithFlagError, flag, FlagError, parseOrExit } from './flags.js';
import { compiledMain } from './package-info.js';
import { waitForNodesReady } from './node-readiness.js';
import { waitForReady } from './readiness.js';
import { chooseServiceRange, clusterDnsIp, DEFAULT_SERVICE_RANGE, fileClaims, hostAddresses, kubernetesServiceIp } from './service-range.js';
import { freePort } from '../pkg/host/free-port.js';
import { serviceLinkName } from '../pkg/proxy/service-addresses.js';
import { onShutdownSignal } from './signals.js';
import { Supervisor, unexpectedExitMessage, type ChildExit } from './supervisor.js';

const summary = 'Starts the control plane, each component a separate process, and prints how to reach it.';
const readyTimeoutMs = 60_000;
/**
 * A component that dies once the cluster is up comes back as the kubelet restarts a static pod: at once the first
 * time, then after CrashLoopBackOff's 10 s doubling to 5 min, which starts over once it ran 10 min.
 */
const CRASH_LOOP_BACKOFF = { initialMs: 10_000, maxMs: 300_000, resetAfterMs: 600_000 };

export const upFlags = {
  'data-dir': flag.string('./.mini-kube', 'Directory of all state: store, certificates, kubeconfigs, logs/'),
  'secure-port': flag.int(6443, 'Port of the apiserver (0 = any free port)'),
  'bind-address': flag.string('127.0.0.1', 'Address the apiserver listens on (0.0.0.0 for every interface)'),
  nodes: flag.int(1, 'Number of nodes, named node-1..node-N'),
  runtime: flag.string('process', 'Container runtime of the kubelets', ['process', 'fake']),
  'unknown-images': flag.string('simulate', 'Process runtime, an image not in the kubelets\' catalog: run as a stand-in (simulate) or not found, ErrImagePull (fail); the kubelets\' --unknown-images', ['simulate', 'fail']),
  'controller-manager-kube-api-qps': flag.int(20, 'Requests per second of the controller-manager to the apiserver (its --kube-api-qps)'),
  'controller-manager-kube-api-burst': flag.int(30, 'Request burst of the controller-manager (its --kube-api-burst)'),
  'scheduler-kube-api-qps': flag.int(50, 'Requests per second of the scheduler to the apiserver (its --kube-api-qps)'),
  'scheduler-kube-api-burst': flag.int(100, 'Request burst of the scheduler (its --kube-api-burst)'),
  dns: flag.bool(true, 'Run the cluster DNS at the kube-dns Service (10.96.0.10 in the first cluster of the machine) for ClusterFirst pods (needs the proxy serving ClusterIPs: root on Linux)'),
  proxy: flag.bool(true, 'Run the service proxy (ClusterIPs reachable when run as root, NodePorts always; process runtime only)'),
  'metrics-server': flag.bool(true, 'Run metrics-server behind the APIService v1beta1.metrics.k8s.io (kubectl top, autoscaling on CPU and memory)'),
};

const read = (p: CertKeyPaths): Promise<[string, string]> => Promise.all([readFile(p.cert, 'utf8'), readFile(p.key, 'utf8')]);

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v } = parseOrExit('up', summary, argv, upFlags);
  if (v.nodes < 0) exitWithFlagError('up', new FlagError(`--nodes ${v.nodes} must not be negative`));
  if (v['secure-port'] < 0 || v['secure-port'] > 65535) exitWithFlagError('up', new FlagError(`--secure-port ${v['secure-port']} must be between 0 and 65535`));
  for (const f of ['controller-manager-kube-api-qps', 'controller-manager-kube-api-burst', 'scheduler-kube-api-qps', 'scheduler-kube-api-burst'] as const) {
    if (v[f] < 1) exitWithFlagError('up', new FlagError(`--${f} ${v[f]} must be at least 1`));
  }
  const bind = v['bind-address'];
  if (!isIP(bind)) exitWithFlagError('up', new FlagError(`--bind-address "${bind}" is not an IP address`));
  const dataDir = resolve(v['data-dir']);
  // before anything is claimed for this cluster (a Service range that the running one holds would warn of a collision):
  // another `up` on the data dir, even while its apiserver is down, or an apiserver run by itself on it
  const holder = await claimDataDir(dataDir);
  if (holder !== undefined || await storeInUse(dataDir)) {
    process.stderr.write(`Error: ${dataDirInUseMessage(dataDir, holder)}\n`);
    process.exit(1);
  }
  const wildcard = bind === '0.0.0.0' || bind === '::';
  const nodes = Array.from({ length: v.nodes }, (_, i) => `node-${i + 1}`);
  const port = v['secure-port'] === 0 ? await freePort(bind) : v['secure-port'];
  const server = serverUrl(bind, port);
  const proxy = v.proxy && v.runtime === 'process';
  // a root proxy makes ClusterIPs addresses of the host: each cluster of the machine needs a range of its own
  const clusterIps = proxy && process.platform === 'linux' && process.getuid?.() === 0;
  const { range, warning } = clusterIps
    ? await chooseServiceRange(dataDir, fileClaims('/run/mini-kube/service-ranges'), hostAddresses(serviceLinkName(server)))
    : { range: DEFAULT_SERVICE_RANGE, warning: undefined };
  if (warning) process.stderr.write(`Warning: ${warning}\n`);
  // in-cluster clients reach the apiserver at the first address of the range (the kubernetes Service)
  // a data dir kept past its certificates' year has them issued again, with their keys
  const onRenewed = (cert: string, expiry: string): void => {
    process.stderr.write(`Renewed ${cert}: it ${Date.parse(expiry) < Date.now() ? 'expired' : 'expires'} ${expiry}\n`);
  };
  const pki = await ensurePki(join(dataDir, 'pki'), { nodes, serverSans: [...(wildcard ? [] : [bind]), kubernetesServiceIp(range)], onRenewed });
  await mkdir(join(dataDir, 'logs'), { recursive: true });
  const caPem = await readFile(pki.ca.cert, 'utf8');

  const supervisor = new Supervisor(process.execPath, [compiledMain()]);
  onShutdownSignal(() => supervisor.stop(), () => supervisor.kill());
  const rates = {
    controllerManager: { qps: v['controller-manager-kube-api-qps'], burst: v['controller-manager-kube-api-burst'] },
    scheduler: { qps: v['scheduler-kube-api-qps'], burst: v['scheduler-kube-api-burst'] },
  };
  const metricsServer = v['metrics-server'] ? { port: await freePort('127.0.0.1'), pki: await ensureMetricsServerPki(pki.dir, { onRenewed }) } : undefined;
  // pods reach the DNS through its ClusterIP, which only a root proxy serves
  const dns = clusterIps && v.dns ? { port: await freePort('127.0.0.1'), ip: clusterDnsIp(range), domain: CLUSTER_DOMAIN } : undefined;
  const serviceClusterIpRange = clusterIps ? range : undefined;
  // free loopback ports rather than upstream's 10259/10257: several clusters may run on one machine
  const servingPorts = { scheduler: await freePort('127.0.0.1'), controllerManager: await freePort('127.0.0.1') };
  process.stderr.write(`scheduler: https://127.0.0.1:${servingPorts.scheduler}, controller-manager: https://127.0.0.1:${servingPorts.controllerManager} (/healthz, /metrics, /configz)\n`);
  const components: Pick<ComponentSpec, 'name' | 'args' | 'nodeFlags'>[] = [];
  for (const c of controlPlane({ dataDir, port, bindAddress: bind, nodes, runtime: v.runtime as 'process' | 'fake', unknownImages: v['unknown-images'] as 'simulate' | 'fail', pki, rates, metricsServer, proxy, dns, serviceClusterIpRange, servingPorts })) {
    const args = [...c.args];
    if (c.identity) {
      const kubeconfig = join(dataDir, `${c.name}.kubeconfig`);
      const [certPem, keyPem] = await read(c.identity.pair);
      await writeKubeconfig(kubeconfig, { server, caPem, certPem, keyPem, user: c.identity.user });
      args.push('--kubeconfig', kubeconfig);
    }
    components.push({ name: c.name, args, nodeFlags: c.nodeFlags });
  }
  const start = (c: (typeof components)[number]): void => supervisor.start(c.name, c.args, join(dataDir, 'logs', `${c.name}.log`), c.nodeFlags);
  const [apiserver, ...rest] = components;
  const startedAt = Date.now();
  start(apiserver!);
  // the kubelets load while the apiserver starts (it takes one core): a kubelet retries its registration from 100 ms
  // on, as upstream's, so one that is early only waits; started with the others, loading on two busy cores held
  // every node back ~2 s (a controller-manager or scheduler started early waits out a 2-4.4 s leader election retry)
  const isKubelet = (c: (typeof components)[number]): boolean => c.name.startsWith('kubelet-');
  rest.filter(isKubelet).forEach(start);
  const others = rest.filter((c) => !isKubelet(c));

  const fail = async (message: string): Promise<never> => {
    process.stderr.write(`Error: ${message}\n`);
    await supervisor.stop();
    process.exit(1);
  };
  supervisor.failure.signal.addEventListener('abort', () => void fail(unexpectedExitMessage(supervisor.failure.signal.reason as ChildExit)));

  const [certPem, keyPem] = await read(pki.admin);
  try {
    await waitForReady({ url: `${server}/readyz`, ca: caPem, cert: certPem, key: keyPem, timeoutMs: readyTimeoutMs, signal: supervisor.failure.signal });
  } catch (e) {
    if (supervisor.failure.signal.aborted) return; // the abort listener reports which child died
    await fail(`${(e as Error).message}; see ${join(dataDir, 'logs', 'apiserver.log')}`);
  }
  // as kubeadm's static pods come up behind the apiserver: started before it answers, the controller-manager's and
  // scheduler's first leader election failed, and client-go's jittered retry period held them back 2–4.4 s
  const addons = new Set(['dns', 'proxy', 'metrics-server']);
  others.filter((c) => !addons.has(c.name)).forEach(start);
  // the add-ons once the nodes have registered and have their pod ranges: seven processes starting at once on two
  // cores held back the controller-manager (its node-ipam gives the nodes the podCIDR a kubelet is Ready with)
  const probe = { server, ca: caPem, cert: certPem, key: keyPem, nodes, since: startedAt, timeoutMs: readyTimeoutMs, signal: supervisor.failure.signal };
  const addonsStarted = waitForNodesReady(probe, true).catch(() => undefined)
    .then(() => { if (!supervisor.failure.signal.aborted) others.filter((c) => addons.has(c.name)).forEach(start); });
  await ensureDefaultStorageClass({ server, ca: caPem, cert: certPem, key: keyPem })
    .catch((e: unknown) => process.stderr.write(`Warning: no default StorageClass: ${(e as Error).message}\n`));
  // registered while the nodes come up; done before `ready`
  const registering = (async () => {
    const { Client } = await import('../pkg/client/index.js');
    const admin = new Client({ host: server, caData: caPem, certData: certPem, keyData: keyPem, qps: 0 });
    await Promise.all([
      // as kubeadm init: kube-public/cluster-info for `kubeadm join --discovery-token`, and the node bootstrap bindings
      applyClusterInfoObjects(admin, server, caPem)
        .catch((e: unknown) => process.stderr.write(`Warning: kube-public/cluster-info is not published (token discovery will not work): ${(e as Error).message}\n`)),
      dns && applyClusterDnsObjects(admin, dns.port, dns.ip, Date.now() + readyTimeoutMs)
        .catch((e: unknown) => process.stderr.write(`Warning: the cluster DNS is not registered (pods will not resolve service names): ${(e as Error).message}\n`)),
      metricsServer && applyMetricsServerObjects(admin, metricsServer.port, caPem, 10_000)
        .catch((e: unknown) => process.stderr.write(`Warning: metrics-server is not registered (kubectl top will not work): ${(e as Error).message}\n`)),
    ]).finally(() => admin.close());
  })();
  try {
    await waitForNodesReady(probe);
  } catch (e) {
    if (supervisor.failure.signal.aborted) return;
    await fail(`${(e as Error).message}; see ${join(dataDir, 'logs')}`);
  }
  try {
    // as minikube's default_sa wait: pods in `default` are refused until its ServiceAccount exists
    await waitForReady({ url: `${server}/api/v1/namespaces/default/serviceaccounts/default`, ca: caPem, cert: certPem, key: keyPem, timeoutMs: readyTimeoutMs, signal: supervisor.failure.signal });
  } catch (e) {
    if (supervisor.failure.signal.aborted) return;
    await fail(`the default ServiceAccount: ${(e as Error).message}; see ${join(dataDir, 'logs', 'controller-manager.log')}`);
  }
  await addonsStarted;
  await registering;
  const adminKubeconfig = await writeAdminKubeconfig(dataDir, server, { caPem, certPem, keyPem });
  process.stdout.write(`ready: export KUBECONFIG=${adminKubeconfig}\n`);
  supervisor.keepAlive({
    ...CRASH_LOOP_BACKOFF,
    onRestart: (exit, ms) => process.stderr.write(`Warning: ${unexpectedExitMessage(exit)}; starting it again${ms ? ` in ${ms / 1000}s` : ''}\n`),
  });
};
