// Service-account token keys: the signing key (--service-account-signing-key-file) and the verifying keys
// (--service-account-key-file, a PEM bundle of public keys, private keys or certificates, as upstream's keyutil reads).
// Key ids are upstream's: base64url(SHA-256(DER of the PKIX public key)).
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exportJWK, type JWK } from 'jose';

export type SigningAlg = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface PublicKeyEntry {
  kid: string;
  alg: SigningAlg;
  key: KeyObject;
}

export interface SigningKeyEntry extends PublicKeyEntry {
  privateKey: KeyObject;
}

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

export const keyIdOf = (publicKey: KeyObject): string =>
  createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');

const pemBlocks = (text: string): { label: string; block: string }[] =>
  [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g)].map((m) => ({ label: m[1]!, block: m[0] }));

export const loadSigningKey = (path: string): SigningKeyEntry => {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`service account signing key ${path}: ${(e as Error).message}`);
  }
  const key = createPublicKey(privateKey);
  return { privateKey, key, alg: algorithmOf(key), kid: keyIdOf(key) };
};

/** Every public key of the files (each may hold several PEM blocks). */
export const loadPublicKeys = (paths: string[]): PublicKeyEntry[] => {
  const out: PublicKeyEntry[] = [];
  for (const path of paths) {
    const blocks = pemBlocks(readFileSync(path, 'utf8'));
    if (blocks.length === 0) throw new Error(`service account key file ${path}: no PEM block found`);
    for (const { label, block } of blocks) {
      let key: KeyObject;
      if (label === 'CERTIFICATE') key = new X509Certificate(block).publicKey;
      else if (label.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(block));
      else key = createPublicKey(block);
      out.push({ key, alg: algorithmOf(key), kid: keyIdOf(key) });
    }
  }
  return out;
};

/** The JWKS document served at /openid/v1/jwks. */
export const jwksOf = async (keys: PublicKeyEntry[]): Promise<{ keys: JWK[] }> => {
  const seen = new Set<string>();
  const out: JWK[] = [];
  for (const k of keys) {
    if (seen.has(k.kid)) continue;
    seen.add(k.kid);
    out.push({ use: 'sig', kty: '', kid: k.kid, alg: k.alg, ...(await exportJWK(k.key)) });
  }
  return { keys: out };
};

/** The document served at /.well-known/openid-configuration (upstream: serviceaccount.NewOpenIDMetadata). */
export const openIdConfiguration = (issuer: string, jwksUri: string, keys: PublicKeyEntry[]): Record<string, unknown> => ({
  issuer,
  jwks_uri: jwksUri,
  response_types_supported: ['id_token'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: [...new Set(keys.map((k) => k.alg))].sort(),
});
