// Encryption-at-rest providers as upstream's EncryptionConfiguration names them, with upstream's stored format:
// `k8s:enc:<provider>:v1:<key name>:` followed by the ciphertext. aescbc: a random 16-byte IV then AES-CBC with PKCS#7
// padding; aesgcm: a random 12-byte nonce then AES-GCM ciphertext and 16-byte tag, the storage key as additional
// authenticated data; secretbox: a random 24-byte nonce then NaCl's secretbox (XSalsa20-Poly1305, tag first; not in
// Node's crypto, so tweetnacl); identity: the plaintext, no prefix. kms needs a plugin.
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import nacl from 'tweetnacl';

export interface Transformer {
  /** The prefix of the values this transformer writes ('' for identity). */
  readonly prefix: string;
  encrypt(plaintext: Buffer, key: string): Buffer;
  decrypt(ciphertext: Buffer, key: string): Buffer;
}

export interface ProviderConfig {
  aescbc?: { keys?: { name?: string; secret?: string }[] };
  aesgcm?: { keys?: { name?: string; secret?: string }[] };
  secretbox?: { keys?: { name?: string; secret?: string }[] };
  kms?: unknown;
  identity?: unknown;
}

const keyOf = (provider: string, k: { name?: string; secret?: string }, lengths = [16, 24, 32]): { name: string; secret: Buffer } => {
  if (!k.name) throw new Error(`${provider}: every key needs a name`);
  if (!k.secret) throw new Error(`${provider}: key ${k.name} has no secret`);
  const secret = Buffer.from(k.secret, 'base64');
  if (!lengths.includes(secret.length)) throw new Error(`${provider}: key ${k.name}: the secret must be a base64 ${lengths.join(', ')} byte key, got ${secret.length} bytes`);
  return { name: k.name, secret };
};

const aes = (secret: Buffer): string => `${secret.length * 8}`;

const aescbc = (name: string, secret: Buffer): Transformer => ({
  prefix: `k8s:enc:aescbc:v1:${name}:`,
  encrypt(plaintext) {
    const iv = randomBytes(16);
    const c = createCipheriv(`aes-${aes(secret)}-cbc`, secret, iv);
    return Buffer.concat([iv, c.update(plaintext), c.final()]);
  },
  decrypt(data) {
    if (data.length < 32 || data.length % 16 !== 0) throw new Error('the stored data is not a multiple of the AES block size');
    const d = createDecipheriv(`aes-${aes(secret)}-cbc`, secret, data.subarray(0, 16));
    return Buffer.concat([d.update(data.subarray(16)), d.final()]);
  },
});

const aesgcm = (name: string, secret: Buffer): Transformer => ({
  prefix: `k8s:enc:aesgcm:v1:${name}:`,
  encrypt(plaintext, key) {
    const nonce = randomBytes(12);
    const c = createCipheriv(`aes-${aes(secret)}-gcm` as CipherGCMTypes, secret, nonce);
    c.setAAD(Buffer.from(key));
    const body = Buffer.concat([c.update(plaintext), c.final()]);
    return Buffer.concat([nonce, body, c.getAuthTag()]);
  },
  decrypt(data, key) {
    if (data.length < 12 + 16) throw new Error('the stored data was shorter than the required size');
    const d = createDecipheriv(`aes-${aes(secret)}-gcm` as CipherGCMTypes, secret, data.subarray(0, 12));
    d.setAAD(Buffer.from(key));
    d.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]);
  },
});

const secretbox = (name: string, secret: Buffer): Transformer => ({
  prefix: `k8s:enc:secretbox:v1:${name}:`,
  encrypt(plaintext) {
    const nonce = randomBytes(nacl.secretbox.nonceLength);
    return Buffer.concat([nonce, nacl.secretbox(plaintext, nonce, secret)]);
  },
  decrypt(data) {
    const n = nacl.secretbox.nonceLength;
    if (data.length < n + nacl.secretbox.overheadLength) throw new Error('the stored data was shorter than the required size');
    const opened = nacl.secretbox.open(data.subarray(n), data.subarray(0, n), secret);
    if (!opened) throw new Error('output array was not large enough for encryption');
    return Buffer.from(opened);
  },
});

export const identity: Transformer = { prefix: '', encrypt: (p) => p, decrypt: (c) => c };

/** The transformers of one provider entry, in key order (the first key of the first provider encrypts). */
export function transformersOf(p: ProviderConfig): Transformer[] {
  const kinds = Object.keys(p).filter((k) => (p as Record<string, unknown>)[k] !== undefined);
  if (kinds.length !== 1) throw new Error(`a provider must name exactly one of aescbc, aesgcm, secretbox, kms, identity; got ${kinds.join(', ') || 'none'}`);
  const keys = p.aescbc?.keys ?? p.aesgcm?.keys ?? p.secretbox?.keys;
  if ((p.aescbc || p.aesgcm || p.secretbox) && !keys?.length) throw new Error(`${kinds[0]}: at least one key is required`);
  if (p.aescbc) return (p.aescbc.keys ?? []).map((k) => keyOf('aescbc', k)).map((k) => aescbc(k.name, k.secret));
  if (p.aesgcm) return (p.aesgcm.keys ?? []).map((k) => keyOf('aesgcm', k)).map((k) => aesgcm(k.name, k.secret));
  if (p.secretbox) return (p.secretbox.keys ?? []).map((k) => keyOf('secretbox', k, [nacl.secretbox.keyLength])).map((k) => secretbox(k.name, k.secret));
  if (p.identity !== undefined) return [identity];
  throw new Error(`${kinds[0]}: provider not supported; use aescbc, aesgcm, secretbox or identity`);
}
