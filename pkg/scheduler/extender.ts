// Scheduler extenders, as upstream's HTTPExtender (pkg/scheduler/extender.go): a webhook the scheduler POSTs
// ExtenderArgs to at `urlPrefix/verb` to filter and prioritize the feasible nodes, bind pods or trim preemption
// victims. The JSON is kube-scheduler/extender/v1's (Go field names: Pod, Nodes, NodeNames, FailedNodes, ...);
// replies are read case-insensitively, as Go's decoder does.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { KubeObject } from '../client/index.js';
import type { ExtenderConfig } from './config.js';
import type { NodeInfo } from './node-info.js';
import { podUid, type Pod } from './types.js';

/** Upstream's MaxExtenderPriority: an extender scores 0..10, scaled to the scheduler's 0..100. */
export const MAX_EXTENDER_PRIORITY = 10;

export interface ExtenderFilterOutcome {
  nodes: NodeInfo[];
  /** node → message: Unschedulable. */
  failed: Record<string, string>;
  /** node → message: UnschedulableAndUnresolvable (wins over `failed`). */
  failedAndUnresolvable: Record<string, string>;
}

export interface Victims { pods: Pod[]; numPDBViolations: number }

/** A reply's field whatever its case (`NodeNames`, `nodenames`, `nodeNames`). */
const field = (o: unknown, name: string): any => {
  if (!o || typeof o !== 'object') return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === lower) return v;
  return undefined;
};

const readData = (data?: string, file?: string): string | undefined =>
  data ? Buffer.from(data, 'base64').toString('utf8') : file ? readFileSync(file, 'utf8') : undefined;

export class HttpExtender {
  readonly name: string;
  private readonly managed: Set<string>;
  private readonly dispatcher?: Agent;

  constructor(private readonly c: ExtenderConfig) {
    this.name = c.urlPrefix;
    this.managed = new Set(c.managedResources.map((r) => r.name));
    if (c.enableHTTPS || c.urlPrefix.startsWith('https:')) {
      const t = c.tlsConfig ?? {};
      const ca = readData(t.caData, t.caFile);
      this.dispatcher = new Agent({
        connect: {
          // as upstream: HTTPS without a CA does not verify the extender's certificate
          rejectUnauthorized: !t.insecure && !!ca, ca, servername: t.serverName || undefined,
          cert: readData(t.certData, t.certFile), key: readData(t.keyData, t.keyFile),
        },
      });
    }
  }

  get ignorable(): boolean { return this.c.ignorable; }
  get isBinder(): boolean { return !!this.c.bindVerb; }
  get supportsPreemption(): boolean { return !!this.c.preemptVerb; }
  get weight(): number { return this.c.weight; }
  get prioritizes(): boolean { return !!this.c.prioritizeVerb; }

  /** Whether the pod requests (or limits) one of the extender's managed resources; all pods when it names none. */
  isInterested(pod: Pod): boolean {
    if (!this.managed.size) return true;
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      for (const r of [...Object.keys(c.resources?.requests ?? {}), ...Object.keys(c.resources?.limits ?? {})]) if (this.managed.has(r)) return true;
    }
    return false;
  }

  async filter(pod: Pod, nodes: NodeInfo[]): Promise<ExtenderFilterOutcome> {
    if (!this.c.filterVerb) return { nodes, failed: {}, failedAndUnresolvable: {} };
    const result = await this.send(this.c.filterVerb, this.args(pod, nodes));
    const error = field(result, 'Error');
    if (error) throw new Error(String(error));
    const byName = new Map(nodes.map((n) => [n.name, n]));
    let kept: NodeInfo[] = [];
    const names = field(result, 'NodeNames') as string[] | null | undefined;
    const list = field(result, 'Nodes') as { items?: KubeObject[] } | null | undefined;
    if (this.c.nodeCacheCapable && names) {
      for (const n of names) {
        const ni = byName.get(n);
        if (!ni) throw new Error(`extender "${this.name}" claims a filtered node "${n}" which is not found in the input node list`);
        kept.push(ni);
      }
    } else if (list) {
      kept = (list.items ?? []).map((n) => byName.get(n.metadata?.name ?? '')).filter((n): n is NodeInfo => !!n);
    }
    return { nodes: kept, failed: field(result, 'FailedNodes') ?? {}, failedAndUnresolvable: field(result, 'FailedAndUnresolvableNodes') ?? {} };
  }

  /** Scores per node name (0..10, not yet weighted). */
  async prioritize(pod: Pod, nodes: NodeInfo[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!this.c.prioritizeVerb) return out;
    const result = await this.send(this.c.prioritizeVerb, this.args(pod, nodes));
    for (const hp of (Array.isArray(result) ? result : []) as unknown[]) out.set(String(field(hp, 'Host')), Number(field(hp, 'Score')) || 0);
    return out;
  }

  async bind(pod: Pod, node: string): Promise<void> {
    const result = await this.send(this.c.bindVerb!, {
      PodName: pod.metadata?.name, PodNamespace: pod.metadata?.namespace, PodUID: pod.metadata?.uid, Node: node,
    });
    const error = field(result, 'Error');
    if (error) throw new Error(String(error));
  }

  /** The victims the extender agrees to, per node (nodes it drops are no candidates any more). */
  async processPreemption(pod: Pod, victims: Map<string, Victims>, nodeInfo: (name: string) => NodeInfo | undefined): Promise<Map<string, Victims>> {
    const args: Record<string, unknown> = { Pod: pod };
    const meta = (v: Victims): unknown => ({ Pods: v.pods.map((p) => ({ UID: podUid(p) })), NumPDBViolations: v.numPDBViolations });
    if (this.c.nodeCacheCapable) args.NodeNameToMetaVictims = Object.fromEntries([...victims].map(([n, v]) => [n, meta(v)]));
    else args.NodeNameToVictims = Object.fromEntries([...victims].map(([n, v]) => [n, { Pods: v.pods, NumPDBViolations: v.numPDBViolations }]));
    const result = await this.send(this.c.preemptVerb!, args);
    const out = new Map<string, Victims>();
    for (const [node, mv] of Object.entries((field(result, 'NodeNameToMetaVictims') ?? {}) as Record<string, unknown>)) {
      const ni = nodeInfo(node);
      if (!ni) throw new Error(`extender "${this.name}" names node "${node}", which the scheduler does not know`);
      const pods: Pod[] = [];
      for (const mp of (field(mv, 'Pods') ?? []) as unknown[]) {
        const uid = String(field(mp, 'UID'));
        const pi = ni.pods.get(uid);
        if (!pi) throw new Error(`extender: ${this.name} claims to preempt pod (UID: ${uid}) on node: ${node}, but the pod is not found on that node`);
        pods.push(pi.pod);
      }
      out.set(node, { pods, numPDBViolations: Number(field(mv, 'NumPDBViolations')) || 0 });
    }
    return out;
  }

  private args(pod: Pod, nodes: NodeInfo[]): Record<string, unknown> {
    return this.c.nodeCacheCapable
      ? { Pod: pod, NodeNames: nodes.map((n) => n.name) }
      : { Pod: pod, Nodes: { apiVersion: 'v1', kind: 'NodeList', metadata: {}, items: nodes.map((n) => n.node) } };
  }

  private async send(verb: string, body: unknown): Promise<unknown> {
    const url = `${this.c.urlPrefix.replace(/\/+$/, '')}/${verb}`;
    const res = await request(url, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
      dispatcher: this.dispatcher, headersTimeout: this.c.httpTimeoutMs, bodyTimeout: this.c.httpTimeoutMs,
      signal: AbortSignal.timeout(this.c.httpTimeoutMs),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`failed ${verb} with extender at URL ${url}, code ${res.statusCode}`);
    }
    return res.body.json();
  }

  close(): Promise<void> { return this.dispatcher?.close() ?? Promise.resolve(); }
}
