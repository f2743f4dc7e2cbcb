// One node's bookkeeping with the apiserver: register the Node, keep its status (every `statusUpdateMs` when it
// changed, every `statusReportMs` otherwise) and renew its Lease in kube-node-lease every `leaseRenewMs`, as
// upstream's kubelet_node_status.go and nodelease controller do.
import type { Logger } from 'pino';
import {
  formatMicroTime, isAlreadyExists, isConflict, isForbidden, isNotFound, preciseNowOf, realClock, Resources, resourceVersionOlder, type Client, type Clock, type KubeObject, type Lease, type OwnerReference,
} from '../client/index.js';
import { conditionsDiffer, initialNode, nodeStatus, statusChanged, type NodeHealth, type NodeIdentity } from './node-status.js';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** The annotation on a CSINode naming the in-tree volume plugins migrated to CSI (v1.MigratedPluginsAnnotationKey). */
export const MIGRATED_PLUGINS_ANNOTATION = 'storage.alpha.kubernetes.io/migrated-plugins';
/** 1.32's migrated in-tree plugins (Portworx's migration on by default since 1.31), sorted as upstream joins them. */
export const MIGRATED_PLUGINS = [
  'kubernetes.io/aws-ebs', 'kubernetes.io/azure-disk', 'kubernetes.io/azure-file', 'kubernetes.io/cinder',
  'kubernetes.io/gce-pd', 'kubernetes.io/portworx-volume', 'kubernetes.io/vsphere-volume',
].join(',');

export interface NodeAgentOptions {
  client: Client;
  identity: NodeIdentity;
  logger: Logger;
  clock?: Clock;
  health?: () => NodeHealth;
  /** Default 40 s (nodeLeaseDurationSeconds). */
  leaseDurationSeconds?: number;
  /** Default 10 s (a quarter of the lease duration). */
  leaseRenewMs?: number;
  /** nodeStatusUpdateFrequency, default 10 s. */
  statusUpdateMs?: number;
  /** nodeStatusReportFrequency, default 5 min. */
  statusReportMs?: number;
  /** registerNode (default true); false: the Node is made by someone else, the kubelet only posts its status. */
  registerNode?: boolean;
  /**
   * Records an event on the Node (Starting, each condition's transitions as upstream's status setters, cordons). With
   * it, each status update reads the Node first (from the apiserver's cache), as upstream's tryUpdateNodeStatus.
   */
  onEvent?: (type: 'Normal', reason: string, message: string) => void;
  /**
   * The Node as the process's Node informer has it (upstream's kubelet watches its own Node): labels added by
   * `kubectl label node` are seen at once, not at the next status update.
   */
  watched?: () => KubeObject | undefined;
}

/** The event a condition's new status records (upstream's nodestatus setters), by type and status. */
const CONDITION_EVENTS: Record<string, [onTrue: string, otherwise: string]> = {
  MemoryPressure: ['NodeHasInsufficientMemory', 'NodeHasSufficientMemory'],
  DiskPressure: ['NodeHasDiskPressure', 'NodeHasNoDiskPressure'],
  PIDPressure: ['NodeHasInsufficientPID', 'NodeHasSufficientPID'],
  Ready: ['NodeReady', 'NodeNotReady'],
};

export class NodeAgent {
  private readonly clock: Clock;
  private node?: KubeObject;
  private lastReported?: Record<string, unknown>;
  private lastReportAt = 0;
  private startingRecorded = false;
  /** The events of the fresh Node's conditions (upstream's initialNode), once per kubelet start. */
  private initialEventsRecorded = false;
  /** spec.unschedulable as last seen (upstream's lastNodeUnschedulable: false at start). */
  private lastUnschedulable = false;
  /** The Lease as last written: renewals update it without reading it first (upstream's latestLease). */
  private lease?: Lease;
  private registered?: Promise<void>;
  private registeredResolve?: () => void;

  constructor(private readonly o: NodeAgentOptions) {
    this.clock = o.clock ?? realClock;
    this.registered = new Promise((r) => { this.registeredResolve = r; });
  }

  get name(): string { return this.o.identity.name; }

  /** The Node's labels as last seen: by the Node informer, or in the agent's own last read or write if newer. */
  labels(): Record<string, string> { return this.latest()?.metadata?.labels ?? {}; }

  /** The newer of the watched Node and the one the agent last read or wrote. */
  private latest(): KubeObject | undefined {
    const watched = this.o.watched?.();
    if (!watched || !this.node) return watched ?? this.node;
    return resourceVersionOlder(watched.metadata?.resourceVersion, this.node.metadata?.resourceVersion) ? this.node : watched;
  }

  /** The port of the node server, reported in status.daemonEndpoints (known once it listens). */
  setKubeletPort(port: number): void { this.o.identity.kubeletPort = port; }

  /** Resolves once the Node exists and has had its first status. */
  whenRegistered(): Promise<void> { return this.registered!; }

  async run(parent: AbortSignal): Promise<void> {
    // The loops sleep on a signal of this node's own: thousands of simulated nodes listening on one signal make
    // every sleep's addEventListener/removeEventListener walk thousands of listeners.
    const own = new AbortController();
    const abort = (): void => own.abort();
    parent.addEventListener('abort', abort, { once: true });
    const { signal } = own;
    try {
      if (parent.aborted) return;
      // the requests end with the kubelet: a stop while the apiserver does not answer (a port that takes connections
      // and never speaks TLS) would otherwise wait out the connect timeout
      const posted = this.o.registerNode !== false && await this.retryUntil(signal, 'register node', () => this.register(signal));
      if (!posted) await this.retryUntil(signal, 'update node status', () => this.updateStatus(true, signal));
      this.recordStarting();
      this.registeredResolve?.();
      await Promise.all([this.leaseLoop(signal), this.statusLoop(signal), this.initCsiNode(signal)]);
    } finally {
      parent.removeEventListener('abort', abort);
    }
  }

  /**
   * Creates the Node with its status, as upstream's kubelet does, or adopts the existing one (adding any missing
   * labels). True when the status was posted with it.
   */
  async register(signal?: AbortSignal): Promise<boolean> {
    const nodes = this.o.client.nodes();
    const now = this.clock.now();
    const status = nodeStatus(this.o.identity, this.o.health?.() ?? { ready: true }, undefined, now);
    const wanted = initialNode(this.o.identity);
    // upstream's initialNode runs the status setters on a Node of no conditions at each kubelet start, registered
    // before or not: each pressure condition's setter records its event (from Unknown); the Ready setter records
    // none for a condition it adds
    const fresh = { conditions: (status.conditions as { type: string }[]).filter((c) => c.type !== 'Ready') };
    if (!this.initialEventsRecorded) {
      this.initialEventsRecorded = true;
      this.recordTransitions(undefined, fresh);
    }
    try {
      this.node = await nodes.create({ ...wanted, status }, { signal });
      this.o.logger.info('successfully registered node');
      if (!(this.node.status?.conditions as unknown[] | undefined)?.length) return false; // the server dropped it
      // a new Node's NodeReady, which upstream's records once its first NotReady status turns Ready
      this.recordTransitions(fresh, status);
      this.lastReported = status;
      this.lastReportAt = now;
      return true;
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    const existing = await nodes.get(this.name, { signal });
    const labels = existing.metadata?.labels ?? {};
    const missing = Object.fromEntries(Object.entries(wanted.metadata!.labels!).filter(([k, v]) => labels[k] !== v));
    this.node = Object.keys(missing).length ? await nodes.patch(this.name, 'merge', { metadata: { labels: missing } }, { signal }) : existing;
    this.o.logger.info('node was previously registered');
    return false;
  }

  /** Posts the status when it changed, or when the report interval has passed (or `force`). */
  async updateStatus(force = false, signal?: AbortSignal): Promise<boolean> {
    if (this.o.onEvent) await this.readNode(signal);
    const now = this.clock.now();
    const health = this.o.health?.() ?? { ready: true };
    // as upstream's tryUpdateNodeStatus, the status is built on the Node as the apiserver has it: conditions the node
    // controller set Unknown while this kubelet was away are put right at once (with their transition and events),
    // not at the next report interval; a restarted kubelet that finds its Node Ready records no NodeReady again
    const seen = this.latest()?.status as Record<string, unknown> | undefined;
    const status = nodeStatus(this.o.identity, health, this.latest(), now);
    const unchanged = !force && !statusChanged(this.lastReported, status) && !conditionsDiffer(seen, status);
    if (unchanged && now - this.lastReportAt < (this.o.statusReportMs ?? 300_000)) return false;
    const before = seen ?? this.lastReported;
    this.node = await this.o.client.nodes().patch(this.name, 'strategic', { status }, { subresource: 'status', signal });
    this.recordTransitions(before, status);
    this.lastReported = status;
    this.lastReportAt = now;
    return true;
  }

  /** The Node from the apiserver's cache; a cordon or uncordon since the last read is an event. */
  private async readNode(signal?: AbortSignal): Promise<void> {
    this.node = await this.o.client.nodes().get(this.name, { resourceVersion: '0', signal });
    const unschedulable = this.node.spec?.unschedulable === true;
    if (unschedulable === this.lastUnschedulable) return;
    this.lastUnschedulable = unschedulable;
    this.statusEvent(unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable');
  }

  /**
   * "Starting kubelet.", once the apiserver has answered: upstream records it first thing, and its event sink then
   * waits 10 s between tries while the apiserver is not up, holding back every event after it.
   */
  private recordStarting(): void {
    if (this.startingRecorded || !this.o.onEvent) return;
    this.startingRecorded = true;
    this.o.onEvent('Normal', 'Starting', 'Starting kubelet.');
  }

  /** `Node <name> status is now: <reason>`, after Starting. */
  private statusEvent(reason: string): void {
    this.recordStarting();
    this.o.onEvent?.('Normal', reason, `Node ${this.name} status is now: ${reason}`);
  }

  /** An event per condition whose status is new or changed since the last status posted (the first post: all). */
  private recordTransitions(before: Record<string, unknown> | undefined, after: Record<string, unknown>): void {
    if (!this.o.onEvent) return;
    type Condition = { type: string; status: string };
    const was = new Map(((before?.conditions ?? []) as Condition[]).map((c) => [c.type, c.status]));
    for (const c of (after.conditions ?? []) as Condition[]) {
      const reasons = CONDITION_EVENTS[c.type];
      if (!reasons || was.get(c.type) === c.status) continue;
      this.statusEvent(c.status === 'True' ? reasons[0] : reasons[1]);
    }
  }

  private async statusLoop(signal: AbortSignal): Promise<void> {
    const every = this.o.statusUpdateMs ?? 10_000;
    while (!signal.aborted) {
      if (!(await this.sleep(every, signal))) return;
      try {
        await this.updateStatus(false, signal);
      } catch (err) {
        if (signal.aborted) return;
        // as upstream's, a kubelet registers once: a Node deleted under it stays away until the kubelet restarts
        this.o.logger.warn({ err }, 'unable to update node status, will retry');
      }
    }
  }

  /**
   * The node's CSINode, as upstream's CSI volume plugin makes it at start (nodeinfomanager): named after the Node and
   * owned by it, no drivers, the migrated in-tree plugins in its annotation; one already there gets the annotation
   * put right. Retried until done, unless the apiserver forbids it or serves no CSINodes.
   */
  async ensureCsiNode(): Promise<void> {
    const csiNodes = this.o.client.resource(Resources.csiNodes);
    const uid = this.node?.metadata?.uid ?? (await this.o.client.nodes().get(this.name)).metadata?.uid;
    try {
      await csiNodes.create({
        apiVersion: 'storage.k8s.io/v1', kind: 'CSINode',
        metadata: { name: this.name, annotations: { [MIGRATED_PLUGINS_ANNOTATION]: MIGRATED_PLUGINS }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.name, uid: uid! }] },
        spec: { drivers: [] },
      });
      return;
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    const existing = await csiNodes.get(this.name);
    const annotations = existing.metadata?.annotations ?? {};
    const listed = (annotations[MIGRATED_PLUGINS_ANNOTATION] ?? '').split(',').filter(Boolean).sort().join(',');
    if (listed === MIGRATED_PLUGINS) return;
    await csiNodes.update({ ...existing, metadata: { ...existing.metadata, annotations: { ...annotations, [MIGRATED_PLUGINS_ANNOTATION]: MIGRATED_PLUGINS } } });
  }

  private async initCsiNode(signal: AbortSignal): Promise<void> {
    try {
      await this.retryUntil(signal, 'publish CSINode', async () => {
        try { await this.ensureCsiNode(); } catch (err) {
          if (!isForbidden(err) && !isNotFound(err)) throw err;
          this.o.logger.warn({ err }, 'failed to publish CSINode, not retrying');
        }
      });
    } catch { /* stopped */ }
  }

  /** The Lease, created or renewed; returns it. The one last written is updated directly; a conflict reads it again. */
  async renewLease(): Promise<Lease> {
    const leases = this.o.client.leases(NODE_LEASE_NAMESPACE);
    const spec = { holderIdentity: this.name, leaseDurationSeconds: this.o.leaseDurationSeconds ?? 40, renewTime: formatMicroTime(preciseNowOf(this.clock)) };
    let lease = this.lease;
    this.lease = undefined; // read afresh after a failure
    if (!lease) {
      try {
        lease = await leases.get(this.name);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    if (!lease) {
      const owner = await this.leaseOwner();
      this.lease = await leases.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name, namespace: NODE_LEASE_NAMESPACE, ...(owner ? { ownerReferences: owner } : {}) }, spec });
      return this.lease;
    }
    const owner = lease.metadata?.ownerReferences?.length ? undefined : await this.leaseOwner();
    const metadata = { ...lease.metadata, ...(owner ? { ownerReferences: owner } : {}) };
    this.lease = await leases.update({ ...lease, metadata, spec: { ...lease.spec, ...spec } });
    return this.lease;
  }

  /**
   * The Node as owner of its Lease, read afresh as upstream's setNodeOwnerFunc does (a Node deleted and made again has
   * a new uid; a deleted one leaves the Lease without owner rather than one the garbage collector removes at once).
   */
  private async leaseOwner(): Promise<OwnerReference[] | undefined> {
    try {
      const node = await this.o.client.nodes().get(this.name);
      return [{ apiVersion: 'v1', kind: 'Node', name: this.name, uid: node.metadata!.uid! }];
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.o.logger.warn({ err }, 'failed to get node when trying to set owner ref to the node lease');
      return undefined;
    }
  }

  private async leaseLoop(signal: AbortSignal): Promise<void> {
    const every = this.o.leaseRenewMs ?? 10_000;
    let failDelay = 200;
    while (!signal.aborted) {
      try {
        await this.renewLease();
        failDelay = 200;
        if (!(await this.sleep(every, signal))) return;
      } catch (err) {
        if (signal.aborted) return;
        if (!isConflict(err)) this.o.logger.warn({ err }, 'failed to renew node lease, will retry');
        if (!(await this.sleep(failDelay, signal))) return;
        failDelay = Math.min(failDelay * 2, 7_000);
      }
    }
  }

  /** The Node's spec.podCIDR as last read or written (node-ipam sets it after registration). */
  seenPodCidr(): string | undefined { return this.latest()?.spec?.podCIDR as string | undefined; }

  /** Calls fn until it succeeds (backing off), and returns its result. */
  private async retryUntil<T>(signal: AbortSignal, what: string, fn: () => Promise<T>): Promise<T> {
    let delay = 100;
    for (;;) {
      try { return await fn(); } catch (err) {
        if (signal.aborted) throw err;
        this.o.logger.warn({ err }, `unable to ${what}, will retry`);
        if (!(await this.sleep(delay, signal))) throw err;
        delay = Math.min(delay * 2, 7_000);
      }
    }
  }

  private async sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    try { await this.clock.sleep(ms, signal); return true; } catch { return false; }
  }
}
