// Legacy service-account tokens as upstream's pkg/serviceaccount/legacy.go defines them: a JWT of issuer
// "kubernetes/serviceaccount" with no audience and no expiry, kept in a Secret of type
// kubernetes.io/service-account-token (data.token) and valid while that Secret and its ServiceAccount exist. Shared by
// the controller-manager's tokens controller (which signs them) and the apiserver's authenticator (which checks them);
// also the key algorithm and key id both sides derive from a service-account key.
import { createHash, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { KubeObject } from '../../api/types.js';

export const LEGACY_TOKEN_ISSUER = 'kubernetes/serviceaccount';
export const SERVICE_ACCOUNT_TOKEN_SECRET_TYPE = 'kubernetes.io/service-account-token';
/** The Secret annotations naming its ServiceAccount, and that account's uid (set by the tokens controller). */
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SERVICE_ACCOUNT_UID_ANNOTATION = 'kubernetes.io/service-account.uid';
/** The day (UTC, YYYY-MM-DD) a legacy token was last used, kept by the apiserver on its Secret. */
export const LEGACY_TOKEN_LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
/** A label the legacy-token cleaner puts on a token it invalidated: its tokens are refused from then on. */
export const LEGACY_TOKEN_INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

/** The private claims of a legacy token. */
export const LEGACY_CLAIM = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

export type SigningAlg = 'RS256' | 'ES256' | 'ES384' | 'ES512';

const curveAlg: Record<string, SigningAlg> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** The JOSE algorithm a key signs with, as upstream picks it from the key type (RSA: RS256, EC: by curve). */
export const algorithmOf = (key: KeyObject): SigningAlg => {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const alg = curveAlg[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (alg) return alg;
  }
  throw new Error(`unsupported service account key type ${key.asymmetricKeyType ?? '(unknown)'}: use an RSA or EC (P-256/384/521) key`);
};

/** Upstream's key id: base64url(SHA-256(DER of the PKIX public key)). */
export const keyIdOf = (publicKey: KeyObject): string =>
  createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');

/** Whether a token Secret belongs to the account: its name annotation, and its uid one when set. */
export const isTokenOf = (secret: KubeObject, sa: KubeObject): boolean => {
  const a = secret.metadata?.annotations ?? {};
  if (secret.type !== SERVICE_ACCOUNT_TOKEN_SECRET_TYPE || a[SERVICE_ACCOUNT_NAME_ANNOTATION] !== sa.metadata?.name) return false;
  const uid = a[SERVICE_ACCOUNT_UID_ANNOTATION];
  return !uid || uid === sa.metadata?.uid;
};

/** Upstream's LegacyClaims signed by `privateKey`: the token the tokens controller writes into `secretName`. */
export async function signLegacyToken(privateKey: KeyObject, publicKey: KeyObject, sa: KubeObject, secretName: string): Promise<string> {
  const { namespace = '', name = '', uid = '' } = sa.metadata ?? {};
  return new SignJWT({
    [LEGACY_CLAIM.namespace]: namespace, [LEGACY_CLAIM.secretName]: secretName,
    [LEGACY_CLAIM.serviceAccountName]: name, [LEGACY_CLAIM.serviceAccountUid]: uid,
  }).setProtectedHeader({ alg: algorithmOf(publicKey), kid: keyIdOf(publicKey) })
    .setIssuer(LEGACY_TOKEN_ISSUER).setSubject(`system:serviceaccount:${namespace}:${name}`).sign(privateKey);
}
