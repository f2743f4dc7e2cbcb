// ResourceQuota: a create (or an update that grows usage) that would take a namespace past a
// quota's spec.hard is refused with upstream's 403; status.hard and status.used are kept current
// (upstream: apiserver/pkg/admission/plugin/resourcequota, with the usage accounting of the
// resourcequota controller, which mini-kube does not have yet).
//
// Consistency: everything that reads and writes a namespace's usage runs under one lock per
// namespace. Usage is recomputed from the watch caches, plus the objects admitted but not yet seen
// by the cache (reservations, dropped once the cache has them or after RESERVATION_TTL_MS); the
// status is written with a compare-and-swap update through the registry. Deletions and pods that
// finish are picked up from the watch caches' events.
import type { KubeObject, ResourceType } from '../../api/types.js';
import { compareQuantity } from '../apimachinery/quantity.js';
import type { AdmissionDeps, Change } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';
import { podConstraints, quotaSelects, usageOf } from './quota-usage.js';
import { addLists, parseList, prettyPrint, q2s, ZERO, type ResourceList } from './resources.js';

const RESERVATION_TTL_MS = 15_000;

/** Kinds watched from the start (their usage is more than a count, or they are counted under their bare plural). */
const WATCHED = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'];

interface Reservation {
  rt: ResourceType;
  name: string;
  obj: KubeObject;
  usage: ResourceList;
  expires: number;
}

export interface ResourceQuotaOptions {
  now?: () => Date;
  onError?: (err: unknown, msg: string) => void;
}

export class ResourceQuota implements ValidatingPlugin {
  readonly name = 'ResourceQuota';
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly reservations = new Map<string, Map<string, Reservation>>();
  private readonly watched = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly now: () => Date;

  constructor(private readonly deps: AdmissionDeps, private readonly opts: ResourceQuotaOptions = {}) {
    this.now = opts.now ?? (() => new Date());
    for (const plural of WATCHED) this.watchResource('', plural);
    // Quotas written before this start (or by an older apiserver) get their status brought up to date.
    const namespaces = new Set(deps.list('', 'resourcequotas').map((q) => q.metadata?.namespace as string));
    for (const ns of namespaces) this.schedule(ns);
  }

  validate(a: AdmissionAttributes): Promise<void> | void {
    if (!a.namespace || !a.object || a.subresource) return;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    if (a.operation === 'UPDATE' && !(a.resource.group === '' && (a.resource.plural === 'services' || a.resource.plural === 'persistentvolumeclaims'))) return;
    // Fast path: no quota in the namespace.
    if (this.deps.list('', 'resourcequotas', a.namespace).length === 0 && !isResource(a, '', 'resourcequotas')) return;
    return this.locked(a.namespace, () => this.check(a));
  }

  private async check(a: AdmissionAttributes): Promise<void> {
    const ns = a.namespace!;
    const rt = a.resource;
    const now = this.now();
    const newUsage = usageOf(rt, a.object!, now);
    const oldUsage = a.operation === 'UPDATE' && a.oldObject ? usageOf(rt, a.oldObject, now) : {};
    const delta: ResourceList = {};
    for (const [k, v] of Object.entries(newUsage)) {
      const d = { nanos: v.nanos - (oldUsage[k]?.nanos ?? 0n), format: v.format };
      if (d.nanos > 0n) delta[k] = d;
    }
    if (Object.keys(delta).length === 0) return;

    const quotas = this.deps.list('', 'resourcequotas', ns);
    const used = this.usage(ns, quotas, now);
    for (const q of quotas) {
      if (!quotaSelects(q, rt, a.object!)) continue;
      const hard = parseList(q.spec?.hard);
      if (isResource(a, '', 'pods')) {
        const missing = podConstraints(a.object!, Object.keys(hard));
        if (missing) throw admissionForbidden(a, `failed quota: ${q.metadata?.name}: ${missing}`);
      }
      const names = Object.keys(hard).filter((h) => delta[h]);
      if (names.length === 0) continue;
      const qUsed = used.get(q.metadata!.name!)!;
      const exceeded = names.filter((n) => compareQuantity({ nanos: (qUsed[n]?.nanos ?? 0n) + delta[n]!.nanos, format: 'DecimalSI' }, hard[n]!) > 0).sort();
      if (exceeded.length) {
        const mask = (l: ResourceList): ResourceList => Object.fromEntries(exceeded.map((n) => [n, l[n] ?? ZERO]));
        throw admissionForbidden(a, `exceeded quota: ${q.metadata?.name}, requested: ${prettyPrint(mask(delta))}, used: ${prettyPrint(mask(qUsed))}, limited: ${prettyPrint(mask(hard))}`);
      }
    }
    if (a.dryRun) return;
    if (a.operation === 'CREATE') {
      const res = this.reservationsOf(ns);
      res.set(reservationKey(rt, a.object!.metadata!.name!), { rt: rt as ResourceType, name: a.object!.metadata!.name!, obj: a.object!, usage: newUsage, expires: now.getTime() + RESERVATION_TTL_MS });
      setTimeout(() => this.schedule(ns), RESERVATION_TTL_MS + 50).unref();
    }
    // The object being admitted counts from now on (an update: instead of its old self).
    for (const q of quotas) {
      if (!quotaSelects(q, rt, a.object!)) continue;
      const qUsed = { ...used.get(q.metadata!.name!)! };
      for (const k of Object.keys(qUsed)) {
        const d = (newUsage[k]?.nanos ?? 0n) - (oldUsage[k]?.nanos ?? 0n);
        if (d !== 0n) qUsed[k] = { nanos: qUsed[k]!.nanos + d, format: qUsed[k]!.nanos === 0n ? newUsage[k]?.format ?? 'DecimalSI' : qUsed[k]!.format };
      }
      used.set(q.metadata!.name!, qUsed);
    }
    await this.writeStatus(ns, quotas, used);
  }

  /** Each quota's usage of what it limits, from the caches and the reservations. */
  private usage(ns: string, quotas: KubeObject[], now: Date): Map<string, ResourceList> {
    const tracked = new Set<string>();
    for (const q of quotas) for (const h of Object.keys(q.spec?.hard ?? {})) tracked.add(h);
    const kinds = new Map<string, ResourceType>();
    for (const name of tracked) {
      const rt = this.kindOf(name);
      if (rt) kinds.set(`${rt.group}/${rt.plural}`, rt);
    }
    const items: Array<{ rt: ResourceType; obj: KubeObject; usage: ResourceList }> = [];
    for (const rt of kinds.values()) {
      for (const obj of this.deps.list(rt.group, rt.plural, ns)) items.push({ rt, obj, usage: usageOf(rt, obj, now) });
    }
    const res = this.reservationsOf(ns);
    for (const [key, r] of res) {
      if (r.expires <= now.getTime() || this.deps.get(r.rt.group, r.rt.plural, ns, r.name)) {
        res.delete(key);
        continue;
      }
      if (kinds.has(`${r.rt.group}/${r.rt.plural}`)) items.push({ rt: r.rt, obj: r.obj, usage: r.usage });
    }
    const out = new Map<string, ResourceList>();
    for (const q of quotas) {
      const hard = Object.keys(q.spec?.hard ?? {});
      let sum: ResourceList = {};
      for (const it of items) {
        if (quotaSelects(q, it.rt, it.obj)) sum = addLists(sum, it.usage);
      }
      out.set(q.metadata!.name!, Object.fromEntries(hard.map((h) => [h, sum[h] ?? ZERO])));
    }
    return out;
  }

  private async writeStatus(ns: string, quotas: KubeObject[], used: Map<string, ResourceList>): Promise<void> {
    for (const q of quotas) {
      const u = used.get(q.metadata!.name!)!;
      const status = {
        hard: { ...q.spec?.hard },
        used: Object.fromEntries(Object.keys(u).sort().map((k) => [k, q2s(u[k]!)])),
      };
      await this.deps.updateStatus('', 'resourcequotas', ns, q.metadata!.name!, (cur) => {
        if (JSON.stringify(cur.spec?.hard ?? {}) !== JSON.stringify(q.spec?.hard ?? {})) {
          // The quota changed meanwhile: a recompute is queued by its watch event.
          return undefined;
        }
        return status;
      });
    }
  }

  /** The kind a quota resource name counts ("pods", "requests.cpu" -> pods, "count/deployments.apps"). */
  private kindOf(name: string): ResourceType | undefined {
    let group = '';
    let plural: string;
    if (name.startsWith('count/')) {
      const rest = name.slice('count/'.length);
      const dot = rest.indexOf('.');
      plural = dot < 0 ? rest : rest.slice(0, dot);
      group = dot < 0 ? '' : rest.slice(dot + 1);
    } else if (name === 'services' || name.startsWith('services.')) plural = 'services';
    else if (name === 'persistentvolumeclaims' || name === 'requests.storage' || name.includes('.storageclass.storage.k8s.io/')) plural = 'persistentvolumeclaims';
    else if (['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'].includes(name)) plural = name;
    else plural = 'pods';
    const rt = this.deps.resource(group, plural);
    if (rt) this.watchResource(group, plural);
    return rt;
  }

  private watchResource(group: string, plural: string): void {
    const key = `${group}/${plural}`;
    if (this.watched.has(key) || !this.deps.resource(group, plural)) return;
    this.watched.add(key);
    const rt = this.deps.resource(group, plural)!;
    this.deps.watch(group, plural, (change) => this.onChange(rt, change));
  }

  private onChange(rt: ResourceType, change: Change): void {
    const ns = change.namespace;
    // most namespaces have no quota: their objects are not even read
    if (!ns || this.deps.list('', 'resourcequotas', ns).length === 0) return;
    const { type } = change;
    if (rt.group === '' && rt.plural === 'resourcequotas') {
      // A new quota, or one whose spec.hard changed, gets its status (the status write itself is not stale).
      const obj = change.object;
      const stale = JSON.stringify(obj.spec?.hard ?? {}) !== JSON.stringify(obj.status?.hard ?? {});
      if (type === 'DELETED' || (type === 'MODIFIED' && !stale)) return;
    } else if (type === 'MODIFIED' && change.prev) {
      const now = this.now();
      if (prettyPrint(usageOf(rt, change.object, now)) === prettyPrint(usageOf(rt, change.prev, now))) return;
    }
    this.schedule(ns);
  }

  /** One recompute of the namespace's quotas, coalesced. */
  private schedule(ns: string): void {
    if (this.pending.has(ns)) return;
    this.pending.add(ns);
    setImmediate(() => {
      this.pending.delete(ns);
      this.locked(ns, async () => {
        // queued before the apiserver stopped, or after: its store is closing
        if (this.deps.stopped.aborted) return;
        const quotas = this.deps.list('', 'resourcequotas', ns);
        if (quotas.length === 0) return;
        await this.writeStatus(ns, quotas, this.usage(ns, quotas, this.now()));
      }).catch((err: unknown) => {
        if (!this.deps.stopped.aborted) this.opts.onError?.(err, `resource quota usage of namespace ${ns}`);
      });
    });
  }

  private reservationsOf(ns: string): Map<string, Reservation> {
    let m = this.reservations.get(ns);
    if (!m) this.reservations.set(ns, (m = new Map()));
    return m;
  }

  private locked<T>(ns: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(ns) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(ns, tail);
    void tail.then(() => {
      if (this.locks.get(ns) === tail) this.locks.delete(ns);
    });
    return run;
  }
}

const reservationKey = (rt: Pick<ResourceType, 'group' | 'plural'>, name: string): string => `${rt.group}/${rt.plural}/${name}`;
