// Bound service-account token claims as upstream's serviceaccount.Claims builds them
// (pkg/serviceaccount/claims.go): iss, sub, aud, exp, iat, nbf, jti and the private "kubernetes.io" claim.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/types.js';

export interface Ref {
  name: string;
  uid: string;
}

export interface KubernetesClaim {
  namespace: string;
  serviceaccount: Ref;
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
  /** Seconds since the epoch after which a client should warn that it uses an old token (upstream: extended tokens). */
  warnafter?: number;
}

export interface ServiceAccountClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  'kubernetes.io': KubernetesClaim;
}

export const serviceAccountUsername = (namespace: string, name: string): string => `system:serviceaccount:${namespace}:${name}`;
export const serviceAccountGroups = (namespace: string): string[] => ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];

/** "system:serviceaccount:NS:NAME" into its parts, or undefined. */
export const splitServiceAccountUsername = (user: string): { namespace: string; name: string } | undefined => {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  return m ? { namespace: m[1]!, name: m[2]! } : undefined;
};

const ref = (o: KubeObject): Ref => ({ name: o.metadata?.name ?? '', uid: o.metadata?.uid ?? '' });

export interface ClaimsRequest {
  issuer: string;
  audiences: string[];
  expirationSeconds: number;
  now: Date;
  serviceAccount: KubeObject;
  pod?: KubeObject;
  secret?: KubeObject;
  node?: KubeObject;
  warnAfterSeconds?: number;
}

export const buildClaims = (r: ClaimsRequest): ServiceAccountClaims => {
  const iat = Math.floor(r.now.getTime() / 1000);
  const sa = r.serviceAccount;
  const namespace = sa.metadata?.namespace ?? '';
  const k8s: KubernetesClaim = { namespace, serviceaccount: ref(sa) };
  if (r.pod) k8s.pod = ref(r.pod);
  if (r.secret) k8s.secret = ref(r.secret);
  if (r.node) k8s.node = ref(r.node);
  if (r.warnAfterSeconds !== undefined) k8s.warnafter = iat + r.warnAfterSeconds;
  return {
    aud: r.audiences,
    exp: iat + r.expirationSeconds,
    iat,
    iss: r.issuer,
    jti: randomUUID(),
    'kubernetes.io': k8s,
    nbf: iat,
    sub: serviceAccountUsername(namespace, sa.metadata?.name ?? ''),
  };
};
