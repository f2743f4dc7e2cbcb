// One process, one or many kubelets: a single pod informer (for one node narrowed by the field selector
// spec.nodeName=NAME, as the Node authorizer requires; for many simulated nodes, all bound pods with a node index)
// hands each pod to the kubelet of its node, and a single Node informer (its own Node, or every Node for many)
// tells the fake runtime each node's spec.podCIDR as soon as node-ipam sets it and each kubelet's admission the
// node's labels as soon as they change.
import type { ContainerLogOptions } from './log-manager.js';
import type { Logger } from 'pino';
import {
  DelegatedAuth, EventThrottle, finalState, NAMESPACE_INDEX, NODE_NAME_INDEX, indexByNamespace, indexByNodeName, newRateLimiter, realClock, SharedIndexInformer, type Client, type Clock,
  type HandlerRegistration, type KubeObject, type UserIdentity,
} from '../client/index.js';
import { NodeKubelet, type KubeletTimings, type NodeBehaviour, type StaticPodOptions } from './kubelet.js';
import { machineIp, machineResources, type NodeResources } from './node-status.js';
import { intToIp, ipToInt } from './sandbox/cidr.js';
import { FakeRuntime } from './runtime/fake.js';
import { NodeServer, type NodeServerSettings } from './server.js';
import type { Runtime } from './runtime/types.js';
import type { DnsSettings } from './sandbox/dns.js';

export interface KubeletHostOptions extends KubeletTimings, StaticPodOptions, NodeBehaviour, ContainerLogOptions {
  client: Client;
  /** One name per node this process runs. */
  nodeNames: string[];
  /** The nodes are simulated, as kwok's (default: when there are several; see NodeKubeletOptions.simulated). */
  simulated?: boolean;
  logger: Logger;
  clock?: Clock;
  /** The runtime of the i-th node (default: a fake runtime with pod IPs from the node's podCIDR, 100.64.0.0/10's i-th /24 until it has one). */
  runtimeFor?: (index: number, nodeName: string, nodeIp: string) => Runtime;
  resources?: Partial<NodeResources>;
  /** InternalIP of the i-th node (default: the machine's address for one node, 127.0.0.<1+i> for many). */
  nodeIpFor?: (index: number) => string;
  labels?: Record<string, string>;
  kubeletPort?: number;
  /** Serve /containerLogs over HTTPS for clients of this CA (port 0: any; the port is reported in daemonEndpoints). */
  server?: NodeServerSettings;
  /** Cluster DNS settings for pods' resolv.conf (runtimes with pod sandboxes). */
  dns?: DnsSettings;
  /** The pod range of the (one) node, registered in its spec. */
  podCidr?: string;
  /**
   * Without podCidr: called with each node's spec.podCIDR once node-ipam has set it; pods are synced only after
   * (their sandboxes need it).
   */
  onPodCidr?: (nodeName: string, podCidr: string) => void;
  /** Event writes per second and burst of the process, as upstream's --event-qps/--event-burst (default 50/100; 0: no limit). */
  eventQps?: number;
  eventBurst?: number;
  /** Fake runtime tuning when runtimeFor is not given. */
  fakeStartLatencyMs?: number;
}

const isLoopbackV4 = (ip: string): boolean => /^127\.\d+\.\d+\.\d+$/.test(ip);
const LOOPBACK = 127 * 2 ** 24;

/**
 * InternalIP of the i-th simulated node: `base` + i for a loopback base (127.0.0.0/8 all reaches lo on Linux, so the
 * process's one node server tells the nodes apart by the address a connection came in on), else `base` for all.
 */
export const simulatedNodeIp = (i: number, base = '127.0.0.1'): string =>
  isLoopbackV4(base) ? intToIp(LOOPBACK + ((ipToInt(base) - LOOPBACK + i) % 2 ** 24)) : base;

/**
 * Pod IPs of the i-th simulated node while it has no podCIDR: a /24 of 100.64.0.0/10 (shared address space), outside
 * any cluster CIDR node-ipam hands out, so that a pod started before its node got one never takes another node's address.
 */
const fallbackPodCidr = (i: number): string => `${intToIp(ipToInt('100.64.0.0') + (i % 2 ** 14) * 256)}/24`;

/** When, and how often after, a node without a podCIDR says that its pods wait for one. */
export const POD_CIDR_WARN_AFTER_MS = 10_000;
export const POD_CIDR_WARN_EVERY_MS = 300_000;

/**
 * Warns after a few seconds, then rarely, that the node's pods wait for its spec.podCIDR (their sandboxes need it):
 * without one they stay Pending with no event. Returns the stop.
 */
export const warnWhileNoPodCidr = (clock: Pick<Clock, 'setTimer' | 'now'>, logger: Pick<Logger, 'warn'>, nodeName: string): (() => void) => {
  const since = clock.now();
  let timer = clock.setTimer(function warn() {
    logger.warn({ node: nodeName, waitedSeconds: Math.round((clock.now() - since) / 1000) },
      'waiting for the Node\'s spec.podCIDR before running pods: pass --pod-cidr or run the controller-manager with --allocate-node-cidrs --cluster-cidr');
    timer = clock.setTimer(warn, POD_CIDR_WARN_EVERY_MS);
  }, POD_CIDR_WARN_AFTER_MS);
  return () => timer.cancel();
};

export class KubeletHost {
  readonly kubelets = new Map<string, NodeKubelet>();
  readonly informer: SharedIndexInformer;
  /** Services of every namespace: the containers' service link variables (upstream's kubelet watches them too). */
  readonly services: SharedIndexInformer;
  /**
   * The Nodes of this process, as upstream's kubelet watches its own: their podCIDR without a request per pod, and
   * their labels for admission as soon as they change.
   */
  readonly nodes: SharedIndexInformer;

  constructor(private readonly o: KubeletHostOptions) {
    const clock = o.clock ?? realClock;
    const single = o.nodeNames.length === 1;
    const machine = machineResources();
    const resources: NodeResources = { ...machine, ...o.resources };
    const eventThrottle = new EventThrottle(newRateLimiter(o.eventQps ?? 50, o.eventBurst ?? 100, clock));
    const nodes = o.client.nodes();
    const ownNode = (opts: { fieldSelector?: string }): { fieldSelector?: string } => (single ? { ...opts, fieldSelector: `metadata.name=${o.nodeNames[0]!}` } : opts);
    this.nodes = new SharedIndexInformer<KubeObject>({ list: (lo) => nodes.list(ownNode(lo)), watch: (wo) => nodes.watch(ownNode(wo)) },
      { clock, name: 'nodes', logger: o.logger, dropManagedFields: true });
    // until node-ipam gives the node one, the fake runtime takes addresses from a fallback range at once
    const services = o.client.services();
    this.services = new SharedIndexInformer<KubeObject>({ list: (lo) => services.list(lo), watch: (wo) => services.watch(wo) },
      { clock, name: 'services', logger: o.logger, dropManagedFields: true, indexers: { [NAMESPACE_INDEX]: indexByNamespace } });
    const servicesIn = (ns: string): KubeObject[] => this.services.indexer.byIndex(NAMESPACE_INDEX, ns);
    o.nodeNames.forEach((name, i) => {
      const nodeIp = o.nodeIpFor?.(i) ?? (single ? machineIp() : simulatedNodeIp(i));
      const runtime = o.runtimeFor?.(i, name, nodeIp) ?? new FakeRuntime({
        clock, startLatencyMs: o.fakeStartLatencyMs, podCidr: () => o.podCidr ?? this.podCidrOf(name),
        fallbackCidr: fallbackPodCidr(i),
      });
      this.kubelets.set(name, new NodeKubelet({
        ...o, client: o.client, nodeName: name, runtime, logger: o.logger, clock, resources, labels: o.labels,
        nodeIp,
        statusWorkers: single ? 4 : 1,
        simulated: o.simulated ?? !single,
        eventThrottle,
        servicesIn,
        watchedNode: () => this.nodes.indexer.getByKey(name),
      }));
    });
    const pods = o.client.pods();
    // Many nodes: every bound pod (what their per-node watches would see together; a pod not yet scheduled is
    // nobody's, and its creation is a third of a pod's events)
    const narrow = (opts: { fieldSelector?: string }): { fieldSelector?: string } =>
      ({ ...opts, fieldSelector: single ? `spec.nodeName=${o.nodeNames[0]!}` : 'spec.nodeName!=' });
    this.informer = new SharedIndexInformer<KubeObject>({
      list: (lo) => pods.list({ ...lo, ...narrow(lo) }),
      watch: (wo) => pods.watch({ ...wo, ...narrow(wo) }),
    }, { clock, name: 'pods', logger: o.logger, dropManagedFields: true, indexers: { [NODE_NAME_INDEX]: indexByNodeName } });
    const kubeletOf = (pod: KubeObject): NodeKubelet | undefined => this.kubelets.get(pod.spec?.nodeName as string);
    this.informer.addEventHandler({
      onAdd: (pod) => kubeletOf(pod)?.podChanged(pod),
      onUpdate: (old, pod) => {
        const was = kubeletOf(old);
        const now = kubeletOf(pod);
        if (was && was !== now) was.podRemoved(old);
        now?.podChanged(pod);
      },
      onDelete: (obj) => { const pod = finalState(obj); kubeletOf(pod)?.podRemoved(pod); },
    });
  }

  /** The node's spec.podCIDR as the Node informer (or else the node's agent) last saw it. */
  private podCidrOf(nodeName: string): string | undefined {
    return (this.nodes.indexer.getByKey(nodeName)?.spec?.podCIDR as string | undefined) ?? this.kubelets.get(nodeName)?.agent.seenPodCidr();
  }

  /**
   * Resolves with the node's spec.podCIDR as soon as the Node informer sees node-ipam set it; undefined on abort.
   * Warns meanwhile (a kubelet started by hand may wait for a controller-manager that gives none).
   */
  private whenPodCidr(nodeName: string, signal: AbortSignal): Promise<string | undefined> {
    const known = this.podCidrOf(nodeName);
    if (known || signal.aborted) return Promise.resolve(known);
    return new Promise((resolve) => {
      let reg: HandlerRegistration | undefined;
      let finished = false;
      const stopWarning = warnWhileNoPodCidr(this.o.clock ?? realClock, this.o.logger, nodeName);
      const done = (cidr: string | undefined): void => {
        if (finished) return;
        finished = true;
        stopWarning();
        reg?.remove();
        signal.removeEventListener('abort', aborted);
        resolve(cidr);
      };
      const aborted = (): void => done(undefined);
      const seen = (node: KubeObject): void => { if (node.metadata?.name === nodeName && node.spec?.podCIDR) done(node.spec.podCIDR as string); };
      signal.addEventListener('abort', aborted, { once: true });
      reg = this.nodes.addEventHandler({ onAdd: seen, onUpdate: (_old, node) => seen(node) });
      if (finished) reg.remove();
    });
  }

  /** Every node registered (Node created, first status posted). */
  async whenRegistered(): Promise<void> {
    await Promise.all([...this.kubelets.values()].map((k) => k.agent.whenRegistered()));
  }

  /** Runs every kubelet and the informer until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    let server: NodeServer | undefined;
    if (this.o.server) {
      const ips = [...this.kubelets.values()].map((k) => k.o.nodeIp);
      const { authorizationMode, tokenWebhook, tokenCacheMs, cacheAuthorizedMs, cacheUnauthorizedMs, ...settings } = this.o.server;
      // upstream's kubelet keeps token reviews 2 min, allowed answers 5 min and denied ones 30 s
      const auth = new DelegatedAuth(this.o.client, { tokenTtlMs: tokenCacheMs ?? 120_000, allowTtlMs: cacheAuthorizedMs ?? 300_000, denyTtlMs: cacheUnauthorizedMs ?? 30_000 });
      const authenticateToken = tokenWebhook ? (token: string): Promise<UserIdentity | undefined> => auth.authenticateToken(token) : undefined;
      const authorize = authorizationMode === 'AlwaysAllow'
        ? (): Promise<boolean> => Promise.resolve(true)
        : (who: UserIdentity, node: string, subresource: string, verb: string): Promise<boolean> => auth.allowed(who, { verb, resource: 'nodes', subresource, name: node });
      // nodes on loopback addresses of their own: one socket on every address, serving the loopback ones only
      const loopbackOnly = isLoopbackV4(settings.address ?? '') && ips.every(isLoopbackV4) && new Set(ips).size > 1;
      server = new NodeServer({ ...settings, loopbackOnly, authorize, authenticateToken, kubelets: () => [...this.kubelets.values()], logger: this.o.logger, sans: [...this.o.nodeNames.slice(0, 1), ...ips.slice(0, 16)] });
      const port = await server.start();
      for (const k of this.kubelets.values()) k.agent.setKubeletPort(port);
      this.o.logger.info({ port }, 'kubelet server listening');
    }
    try {
      await this.runKubelets(signal);
    } finally {
      await server?.close();
    }
  }

  private async runKubelets(signal: AbortSignal): Promise<void> {
    const kubelets = [...this.kubelets.values()].map((k) => k.run(signal));
    // pods are watched once the nodes exist (a kubelet registers before it syncs pods) and have their podCIDR
    await Promise.race([this.whenRegistered(), new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
    const nodes = signal.aborted ? Promise.resolve() : this.nodes.run(signal);
    const { onPodCidr } = this.o;
    if (onPodCidr && !signal.aborted) {
      await Promise.all([...this.kubelets.values()].map(async (k) => {
        const cidr = await this.whenPodCidr(k.o.nodeName, signal);
        if (cidr) onPodCidr(k.o.nodeName, cidr);
      }));
    }
    // as upstream's kubelet, pods start once the services are known (their containers' environment names them)
    const services = signal.aborted ? Promise.resolve() : this.services.run(signal);
    await this.services.waitForSync(signal);
    await this.nodes.waitForSync(signal);
    const informer = signal.aborted ? Promise.resolve() : this.informer.run(signal);
    if (await this.informer.waitForSync(signal)) {
      for (const k of this.kubelets.values()) k.removeOrphans().catch((err: unknown) => this.o.logger.warn({ err, node: k.nodeName }, 'cannot remove the containers of pods that are gone'));
    }
    await Promise.all([...kubelets, informer, services, nodes]);
  }
}
