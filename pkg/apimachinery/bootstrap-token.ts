// Bootstrap tokens as upstream's k8s.io/cluster-bootstrap defines them (token/api, token/util, util/secrets,
// token/jws): a token `<id>.<secret>` lives in kube-system as the Secret `bootstrap-token-<id>` of type
// `bootstrap.kubernetes.io/token`; its data says what it may be used for (authentication, signing the cluster-info
// ConfigMap), until when, and the extra groups it authenticates in. Pure helpers, shared by the apiserver's
// authenticator and the controller-manager's bootstrap signer and token cleaner.
import { createHmac } from 'node:crypto';
import type { KubeObject } from '../../api/types.js';

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
export const BOOTSTRAP_TOKEN_ID_KEY = 'token-id';
export const BOOTSTRAP_TOKEN_SECRET_KEY = 'token-secret';
export const BOOTSTRAP_TOKEN_EXPIRATION_KEY = 'expiration';
export const BOOTSTRAP_TOKEN_EXTRA_GROUPS_KEY = 'auth-extra-groups';
export const BOOTSTRAP_TOKEN_USAGE_AUTHENTICATION = 'usage-bootstrap-authentication';
export const BOOTSTRAP_TOKEN_USAGE_SIGNING = 'usage-bootstrap-signing';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
/** kube-public/cluster-info: the kubeconfig (CA and server) that `kubeadm join --discovery-token` trusts once signed. */
export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_CONFIGMAP = 'cluster-info';
export const CLUSTER_INFO_KUBECONFIG_KEY = 'kubeconfig';
export const JWS_SIGNATURE_KEY_PREFIX = 'jws-kubeconfig-';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const SECRET_NAME = /^bootstrap-token-([a-z0-9]{6})$/;
const GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
// Go's time.RFC3339 layout as time.Parse reads it (fractional seconds allowed after the seconds)
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The id and secret of a bearer token of the bootstrap form, or undefined. */
export const parseBootstrapToken = (token: string): { id: string; secret: string } | undefined => {
  const m = TOKEN.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
};

/** The token id a Secret's name carries (`bootstrap-token-<id>`), or undefined. */
export const tokenIdOfSecretName = (name: string): string | undefined => SECRET_NAME.exec(name)?.[1];

/** A key of the Secret's data, decoded ("" when absent, as upstream's GetData). */
export const secretData = (secret: KubeObject, key: string): string => {
  const v = (secret.data as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
};

/** Epoch ms of an RFC 3339 time as Go's time.Parse(time.RFC3339) accepts it, or undefined. */
export const parseRfc3339 = (text: string): number | undefined => {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || s! > 59) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * When the token expires: `expired` when its `expiration` is past or unreadable (an unreadable one counts as expired,
 * as upstream's GetExpiration), otherwise the epoch ms it expires at (undefined: never).
 */
export const tokenExpiration = (secret: KubeObject, now: number): { expired: boolean; expiresAt?: number } => {
  const text = secretData(secret, BOOTSTRAP_TOKEN_EXPIRATION_KEY);
  if (!text) return { expired: false };
  const at = parseRfc3339(text);
  if (at === undefined) return { expired: true };
  return at - now <= 0 ? { expired: true, expiresAt: at } : { expired: false, expiresAt: at };
};

/**
 * system:bootstrappers plus the `auth-extra-groups` (comma-separated, each system:bootstrappers:...), deduplicated and
 * sorted as upstream's GetGroups; throws naming the first invalid group.
 */
export const bootstrapGroups = (secret: KubeObject): string[] => {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = secretData(secret, BOOTSTRAP_TOKEN_EXTRA_GROUPS_KEY);
  if (extra) {
    for (const g of extra.split(',')) {
      if (!GROUP.test(g)) throw new Error(`bootstrap group "${g}" is invalid (must match ${GROUP.source})`);
      groups.add(g);
    }
  }
  return [...groups].sort();
};

/** The id and secret of a Secret fit to sign cluster-info with (upstream's validateSecretForSigning), or undefined. */
export const signingToken = (secret: KubeObject, now: number): { id: string; secret: string } | undefined => {
  if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return undefined;
  const nameId = tokenIdOfSecretName(secret.metadata?.name ?? '');
  const id = secretData(secret, BOOTSTRAP_TOKEN_ID_KEY);
  const value = secretData(secret, BOOTSTRAP_TOKEN_SECRET_KEY);
  if (!nameId || !id || id !== nameId || !value) return undefined;
  if (tokenExpiration(secret, now).expired) return undefined;
  if (secretData(secret, BOOTSTRAP_TOKEN_USAGE_SIGNING) !== 'true') return undefined;
  return { id, secret: value };
};

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/**
 * A detached JWS (RFC 7515 appendix F: the payload left out) of `content`, HS256 with the token secret as key and the
 * token id as `kid`, byte for byte as go-jose writes it for upstream's ComputeDetachedSignature (its protected header's
 * keys in Go's sorted order; a secret under 32 bytes zero-padded to 32, which HMAC's own padding makes the same key).
 * kubeadm join compares the whole text, so any other serialization would not verify.
 */
export const detachedSignature = (content: string, tokenId: string, tokenSecret: string): string => {
  const raw = Buffer.from(tokenSecret, 'utf8');
  const key = raw.length < 32 ? Buffer.concat([raw, Buffer.alloc(32 - raw.length)]) : raw;
  const header = b64url(JSON.stringify({ alg: 'HS256', kid: tokenId }));
  const signature = createHmac('sha256', key).update(`${header}.${b64url(content)}`).digest('base64url');
  return `${header}..${signature}`;
};
