// Delegated authentication and authorization, as servers outside the apiserver do them (upstream's
// k8s.io/apiserver authenticatorfactory/authorizerfactory delegating configs, the kubelet's webhook modes): a bearer
// token is checked by a TokenReview, an access by a SubjectAccessReview, each answer kept for a while so that a
// busy client does not cost one review per request.
import type { Client } from './client.js';
import type { KubeObject } from './types.js';

export interface UserIdentity {
  user: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** What is asked: a verb on a resource (its group, subresource, namespace, name), or on a non-resource path. */
export type AccessAttributes =
  | { verb: string; group?: string; version?: string; resource: string; subresource?: string; namespace?: string; name?: string }
  | { verb: string; path: string };

export interface DelegatedAuthOptions {
  /** How long a TokenReview answer is kept (upstream's delegating default 10 s; the kubelet's 2 min). */
  tokenTtlMs?: number;
  /** How long an allowed / a denied SubjectAccessReview answer is kept (delegating default 10 s / 10 s). */
  allowTtlMs?: number;
  denyTtlMs?: number;
}

/** Cached answers are swept of expired ones when the cache reaches this size. */
const SWEEP_AT = 1024;

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  get(key: string, now: number): V | undefined {
    const e = this.entries.get(key);
    return e && e.until > now ? e.value : undefined;
  }

  /** A cached `undefined` is a valid answer: has() tells it from a miss. */
  has(key: string, now: number): boolean {
    const e = this.entries.get(key);
    return e !== undefined && e.until > now;
  }

  set(key: string, value: V, ttlMs: number, now: number): void {
    if (this.entries.size >= SWEEP_AT) for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
    this.entries.set(key, { value, until: now + ttlMs });
  }
}

interface TokenReviewStatus { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }; error?: string }

export class DelegatedAuth {
  private readonly tokens = new TtlCache<UserIdentity | undefined>();
  private readonly decisions = new TtlCache<boolean>();

  constructor(private readonly client: Client, private readonly o: DelegatedAuthOptions = {}) {}

  /** Who the token belongs to, or undefined when the apiserver says it is not valid; a failed review throws. */
  async authenticateToken(token: string): Promise<UserIdentity | undefined> {
    const now = Date.now();
    if (this.tokens.has(token, now)) return this.tokens.get(token, now);
    const res = await this.client.resource<KubeObject>({ group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', namespaced: false, kind: 'TokenReview' })
      .create({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } as KubeObject);
    const s = res.status as TokenReviewStatus | undefined;
    const who = s?.authenticated && s.user?.username
      ? { user: s.user.username, groups: s.user.groups ?? [], ...(s.user.uid ? { uid: s.user.uid } : {}), ...(s.user.extra ? { extra: s.user.extra } : {}) }
      : undefined;
    this.tokens.set(token, who, this.o.tokenTtlMs ?? 10_000, now);
    return who;
  }

  /** Whether the apiserver allows `who` the access; a failed review throws. */
  async allowed(who: UserIdentity, attrs: AccessAttributes): Promise<boolean> {
    const now = Date.now();
    const key = JSON.stringify([who.user, who.groups, who.uid, who.extra, attrs]);
    const hit = this.decisions.get(key, now);
    if (hit !== undefined) return hit;
    const { verb } = attrs;
    const spec = {
      user: who.user, groups: who.groups, ...(who.uid ? { uid: who.uid } : {}), ...(who.extra ? { extra: who.extra } : {}),
      ...('path' in attrs ? { nonResourceAttributes: { verb, path: attrs.path } } : { resourceAttributes: { ...attrs } }),
    };
    const res = await this.client.resource<KubeObject>({ group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', namespaced: false, kind: 'SubjectAccessReview' })
      .create({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec } as KubeObject);
    const allowed = (res.status as { allowed?: boolean } | undefined)?.allowed === true;
    this.decisions.set(key, allowed, allowed ? this.o.allowTtlMs ?? 10_000 : this.o.denyTtlMs ?? 10_000, now);
    return allowed;
  }
}
