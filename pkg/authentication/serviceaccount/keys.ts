// Service-account token keys: the signing key (--service-account-signing-key-file) and the verifying keys
// (--service-account-key-file, a PEM bundle of public keys, private keys or certificates, as upstream's keyutil reads).
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exportJWK, type JWK } from 'jose';
import { algorithmOf, keyIdOf, type SigningAlg } from '../../apimachinery/legacy-service-account-token.js';

export interface PublicKeyEntry {
  kid: string;
  alg: SigningAlg;
  key: KeyObject;
}

export interface SigningKeyEntry extends PublicKeyEntry {
  privateKey: KeyObject;
}

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
