// EventRateLimit: token buckets on the Events written to the apiserver (one for the server, or one per namespace,
// per user, or per event source and involved object), so a flood of Events cannot swamp it (upstream:
// plugin/pkg/admission/eventratelimit).
import { StatusError, type StatusCause } from '../apimachinery/errors.js';
import { causeToString, invalidValue, notSupported } from '../apimachinery/field.js';
import type { Clock } from '../client/clock.js';
import { TokenBucketRateLimiter } from '../client/flowcontrol.js';
import { expectKind, pluginInitError } from './config.js';
import { aggregate } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';

const NAME = 'EventRateLimit';
const LIMIT_TYPES = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
type LimitType = typeof LIMIT_TYPES[number];
/** Buckets kept per limit type when the configuration says no cacheSize. */
const DEFAULT_CACHE_SIZE = 4096;

export interface Limit {
  type: LimitType;
  qps: number;
  burst: number;
  cacheSize?: number;
}

const KEY_OF: Record<LimitType, (a: AdmissionAttributes) => string> = {
  Server: () => '',
  Namespace: (a) => a.namespace ?? '',
  User: (a) => a.user?.name ?? '',
  SourceAndObject: (a) => {
    const e = a.object;
    const o = e?.involvedObject ?? {};
    return [e?.source?.component, e?.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion].map((v) => v ?? '').join('');
  },
};

/** The plugin's Configuration (eventratelimit.admission.k8s.io/v1alpha1), required and checked as upstream does at start. */
export function readEventRateLimitConfig(c: Record<string, unknown> | undefined): Limit[] {
  if (c) expectKind(NAME, c, 'Configuration', ['eventratelimit.admission.k8s.io/v1alpha1']);
  const limits = c?.limits;
  if (limits !== undefined && limits !== null && !Array.isArray(limits)) throw pluginInitError(NAME, 'limits must be a list');
  const list = (limits ?? []) as Array<Record<string, unknown> | null>;
  const errs: string[] = [];
  // Go prints the empty list with its type: nil when absent, empty when given as [].
  if (!list.length) errs.push(`limits: Invalid value: []eventratelimit.Limit${Array.isArray(limits) ? '{}' : '(nil)'}: must not be empty`);
  const out = list.map((l, i): Limit => {
    const at = `limits[${i}]`;
    const int = (field: string): number => {
      const v = l?.[field] ?? 0;
      if (typeof v !== 'number' || !Number.isInteger(v)) throw pluginInitError(NAME, `${at}.${field}: must be an integer`);
      return v;
    };
    const type = String(l?.type ?? '');
    const limit = { type: type as LimitType, qps: int('qps'), burst: int('burst'), cacheSize: int('cacheSize') };
    const fail = (c: StatusCause): number => errs.push(causeToString(c));
    if (!(LIMIT_TYPES as readonly string[]).includes(type)) fail(notSupported(`${at}.type`, type, [...LIMIT_TYPES]));
    if (limit.burst <= 0) fail(invalidValue(`${at}.burst`, limit.burst, 'must be positive'));
    if (limit.qps <= 0) fail(invalidValue(`${at}.qps`, limit.qps, 'must be positive'));
    if (type !== 'Server' && limit.cacheSize < 0) fail(invalidValue(`${at}.cacheSize`, limit.cacheSize, 'must not be negative'));
    return limit;
  });
  if (errs.length) throw pluginInitError(NAME, aggregate(errs));
  return out;
}

/** One limit: its buckets by key, the least recently used forgotten past the cache size (a fresh bucket is full). */
class LimitEnforcer {
  private readonly buckets = new Map<string, TokenBucketRateLimiter>();
  private readonly size: number;

  constructor(private readonly limit: Limit, private readonly clock?: Clock) {
    this.size = limit.type === 'Server' ? 1 : limit.cacheSize || DEFAULT_CACHE_SIZE;
  }

  /** Undefined when the event may go, else why not. */
  accept(a: AdmissionAttributes): string | undefined {
    const key = KEY_OF[this.limit.type](a);
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    bucket ??= new TokenBucketRateLimiter(this.limit.qps, this.limit.burst, this.clock);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.size) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket.tryAccept() ? undefined : `limit reached on type ${this.limit.type} for key ${key}`;
  }
}

export class EventRateLimit implements ValidatingPlugin {
  readonly name = NAME;
  private readonly enforcers: LimitEnforcer[];

  constructor(limits: Limit[], clock?: Clock) {
    this.enforcers = limits.map((l) => new LimitEnforcer(l, clock));
  }

  validate(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    if (a.resource.group !== '' || a.resource.kind !== 'Event') return;
    // A dry run writes nothing, so it takes nothing from the buckets.
    if (a.dryRun) return;
    // Every limit takes its token, whether or not another refuses.
    const refusals = this.enforcers.map((e) => e.accept(a)).filter((r): r is string => r !== undefined);
    if (refusals.length) throw new StatusError(429, 'TooManyRequests', `Too many requests: ${aggregate(refusals)}`);
  }
}
