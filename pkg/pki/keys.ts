// Key material as PEM on disk and as WebCrypto keys in memory (what @peculiar/x509 signs with).
import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { x509 } from './x509.js';

/** ECDSA P-256: fast to generate and accepted by kubectl, client-go and browsers alike. */
export const ecdsaP256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A key pair with the algorithm (including hash) its private key signs with. */
export interface SigningKey {
  keys: CryptoKeyPair;
  algorithm: EcdsaParams | RsaHashedImportParams;
}

export const generateKey = async (): Promise<SigningKey> => ({
  keys: (await webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify'])) as CryptoKeyPair,
  algorithm: ecdsaP256,
});

const pem = (label: string, der: ArrayBuffer): string => x509.PemConverter.encode(der, label);

export const privateKeyPem = async (key: CryptoKey): Promise<string> =>
  pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));

export const publicKeyPem = async (key: CryptoKey): Promise<string> =>
  pem('PUBLIC KEY', await webcrypto.subtle.exportKey('spki', key));

const webCurves: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/**
 * Loads a private key written by us or by another tool (PKCS#8, SEC1 "EC PRIVATE KEY" or PKCS#1 RSA),
 * so that an existing CA keeps signing whatever its key type.
 */
export const loadKey = async (pemText: string): Promise<SigningKey> => {
  const key = createPrivateKey(pemText);
  let importAlg: EcKeyImportParams | RsaHashedImportParams;
  let algorithm: SigningKey['algorithm'];
  if (key.asymmetricKeyType === 'ec') {
    const curve = webCurves[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (!curve) throw new Error(`unsupported EC curve ${key.asymmetricKeyDetails?.namedCurve ?? '(unknown)'}`);
    importAlg = { name: 'ECDSA', namedCurve: curve };
    algorithm = { name: 'ECDSA', hash: 'SHA-256' };
  } else if (key.asymmetricKeyType === 'rsa') {
    importAlg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    algorithm = importAlg;
  } else {
    throw new Error(`unsupported private key type ${key.asymmetricKeyType ?? '(unknown)'}: use an EC or RSA key`);
  }
  const pkcs8 = key.export({ type: 'pkcs8', format: 'der' });
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const keys = {
    privateKey: await webcrypto.subtle.importKey('pkcs8', pkcs8, importAlg, true, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', spki, importAlg, true, ['verify']),
  };
  return { keys, algorithm };
};
