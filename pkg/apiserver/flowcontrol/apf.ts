// API Priority and Fairness, upstream's default request limiting (--enable-priority-and-fairness): every request is
// classified by the FlowSchemas into a priority level; Exempt levels are never limited; each Limited level gets
// ceil(serverCL × nominalConcurrencyShares ÷ Σ shares) seats of the server's concurrency limit (the sum of the two
// in-flight flags), its requests past them queued fairly or refused (queueset.ts). The configuration follows the
// FlowSchema and PriorityLevelConfiguration objects as they change; FlowSchemas whose level does not exist
// (Dangling) match nothing. Levels keep their nominal seats: upstream's borrowing between levels (lendablePercent,
// borrowingLimitPercent) and its work estimates (a list of many objects taking several seats) are not done.
import type { KubeObject } from '../../../api/types.js';
import type { RegistrySet } from '../../registry/index.js';
import { resourcePrefix } from '../../registry/keys.js';
import { followCache } from '../../storage/cacher/follow.js';
import { Classifier, type Classification, type FlowSchemaSpec, type RequestAttributes } from './classifier.js';
import { QueueSet, type QueueSetConfig, type Rejection, type Ticket } from './queueset.js';

const GROUP = 'flowcontrol.apiserver.k8s.io';

interface Level {
  name: string;
  uid: string;
  exempt: boolean;
  queueSet: QueueSet;
  /** Exempt requests executing (they take no seat but are counted). */
  exemptExecuting: number;
}

export type Admission =
  | { classification: Classification; levelUid: string; ticket: Ticket }
  | { classification: Classification; levelUid: string; rejected: Rejection };

/** What one flow schema has done at one level: the figures of upstream's apiserver_flowcontrol_* series. */
export interface FlowCounts {
  priorityLevel: string;
  flowSchema: string;
  executing: number;
  waiting: number;
  dispatched: number;
  rejected: Partial<Record<Rejection, number>>;
}

export interface FlowControlOptions {
  registries: RegistrySet;
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  serverConcurrencyLimit: number;
  /** How long a request may wait in a queue (upstream: a quarter of the request timeout, 15 s). */
  waitLimitMs?: number;
  onError?: (err: unknown) => void;
}

const queuing = (pl: KubeObject): Omit<QueueSetConfig, 'seats'> => {
  const lr = pl.spec?.limited?.limitResponse;
  if (lr?.type !== 'Queue') return { queues: 0, handSize: 0, queueLengthLimit: 0 };
  const q = lr.queuing ?? {};
  // upstream's defaults of the v1 API
  return { queues: q.queues ?? 64, handSize: q.handSize ?? 8, queueLengthLimit: q.queueLengthLimit ?? 50 };
};

export class FlowControl {
  private classifier = new Classifier([]);
  private readonly levels = new Map<string, Level>();
  private readonly flows = new Map<string, FlowCounts>();
  private pending = false;

  constructor(private readonly o: FlowControlOptions) {}

  /** Follows the configuration objects; returns the stop function. */
  start(): () => void {
    const schemas = this.o.registries.get(GROUP, 'v1', 'flowschemas');
    const levels = this.o.registries.get(GROUP, 'v1', 'prioritylevelconfigurations');
    if (!schemas || !levels) return () => {};
    const changed = (): void => {
      if (this.pending) return;
      this.pending = true;
      queueMicrotask(() => {
        this.pending = false;
        try {
          const list = (reg: typeof schemas): KubeObject[] => reg.deps.cacher.list({ prefix: resourcePrefix(reg.rt) }).items.map((kv) => kv.object);
          this.configure(list(schemas), list(levels));
        } catch (err) {
          this.o.onError?.(err);
        }
      });
    };
    const stops = [
      followCache(levels.deps.cacher, resourcePrefix(levels.rt), changed, { initialEvents: true }),
      followCache(schemas.deps.cacher, resourcePrefix(schemas.rt), changed, { initialEvents: true }),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /** Applies a configuration: seats of every level, the FlowSchemas that have a level. */
  configure(schemas: KubeObject[], priorityLevels: KubeObject[]): void {
    const shares = (pl: KubeObject): number => (pl.spec?.type === 'Exempt'
      ? pl.spec?.exempt?.nominalConcurrencyShares ?? 0
      : pl.spec?.limited?.nominalConcurrencyShares ?? 30);
    const total = priorityLevels.reduce((n, pl) => n + shares(pl), 0);
    const seen = new Set<string>();
    for (const pl of priorityLevels) {
      const name = pl.metadata!.name!;
      seen.add(name);
      const exempt = pl.spec?.type === 'Exempt';
      const seats = exempt || total === 0 ? 0 : Math.ceil((this.o.serverConcurrencyLimit * shares(pl)) / total);
      const config = { seats, ...queuing(pl) };
      const level = this.levels.get(name);
      if (level) {
        level.queueSet.setConfig(config);
        level.uid = pl.metadata!.uid ?? '';
        level.exempt = exempt;
      } else {
        this.levels.set(name, { name, uid: pl.metadata!.uid ?? '', exempt, queueSet: new QueueSet(config, this.o.waitLimitMs ?? 15_000), exemptExecuting: 0 });
      }
    }
    for (const name of [...this.levels.keys()]) if (!seen.has(name)) this.levels.delete(name);
    const specs: FlowSchemaSpec[] = schemas.filter((fs) => this.levels.has(fs.spec?.priorityLevelConfiguration?.name)).map((fs) => ({
      name: fs.metadata!.name!, uid: fs.metadata!.uid ?? '', matchingPrecedence: fs.spec?.matchingPrecedence ?? 1000,
      priorityLevel: fs.spec.priorityLevelConfiguration.name, distinguisher: fs.spec?.distinguisherMethod?.type, rules: fs.spec?.rules ?? [],
    }));
    this.classifier = new Classifier(specs);
  }

  /** Every flow's figures, and every Limited level's seats (for /metrics). */
  counts(): { flows: Iterable<FlowCounts>; seats: { priorityLevel: string; seats: number }[] } {
    return { flows: this.flows.values(), seats: [...this.levels.values()].filter((l) => !l.exempt).map((l) => ({ priorityLevel: l.name, seats: l.queueSet.seats })) };
  }

  private flow(level: string, schema: string): FlowCounts {
    const key = `${level}\0${schema}`;
    let f = this.flows.get(key);
    if (!f) this.flows.set(key, (f = { priorityLevel: level, flowSchema: schema, executing: 0, waiting: 0, dispatched: 0, rejected: {} }));
    return f;
  }

  /**
   * Classifies the request and gives it a seat, at once (no promise: the common case costs no wait) or after waiting
   * its turn, or says why not; undefined when no FlowSchema matches (the configuration is not loaded yet).
   * `onGone` registers what to do if the client leaves while the request waits, and returns its unregistration.
   */
  admit(a: RequestAttributes, onGone: (leave: () => void) => () => void): Admission | Promise<Admission> | undefined {
    const c = this.classifier.classify(a);
    const level = c && this.levels.get(c.priorityLevel);
    if (!c || !level) return undefined;
    const flow = this.flow(level.name, c.flowSchema);
    if (level.exempt) {
      level.exemptExecuting++;
      level.queueSet.stats.dispatched++;
      return this.admitted(c, level, flow, { release: () => { level.exemptExecuting--; } });
    }
    const got = level.queueSet.tryAcquire();
    if (got) return this.admitted(c, level, flow, got);
    flow.waiting++;
    return level.queueSet.acquire(`${c.flowSchema}\0${c.flowDistinguisher}`, onGone).then((r) => {
      flow.waiting--;
      if (typeof r !== 'string') return this.admitted(c, level, flow, r);
      flow.rejected[r] = (flow.rejected[r] ?? 0) + 1;
      return { classification: c, levelUid: level.uid, rejected: r };
    });
  }

  private admitted(c: Classification, level: Level, flow: FlowCounts, seat: Ticket): Admission {
    flow.dispatched++;
    flow.executing++;
    let done = false;
    return { classification: c, levelUid: level.uid, ticket: { release: () => { if (!done) { done = true; flow.executing--; seat.release(); } } } };
  }

  /** /debug/api_priority_and_fairness/dump_priority_levels, as upstream's table. */
  dumpPriorityLevels(): string {
    const header = ['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests'];
    const rows = [...this.levels.values()].sort((x, y) => (x.name < y.name ? -1 : 1)).map((l) => {
      const s = l.queueSet.snapshot();
      const executing = l.exempt ? l.exemptExecuting : s.executing;
      return [l.name, s.activeQueues, s.waiting + executing === 0, false, s.waiting, executing, s.dispatched, s.rejected, s.timedOut, s.cancelled].map(String);
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)) + 1);
    return [header, ...rows].map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : `${cell},`.padEnd(widths[i]! + 1))).join(' ').trimEnd()).join('\n') + '\n';
  }
}
