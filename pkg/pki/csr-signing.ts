// Signing certificate signing requests with a CA (upstream pkg/controller/certificates/authority): the subject and
// subject alternative names come from the request, key usages and extended key usages from the CSR object's usages,
// the validity is the requested one capped by the signer's maximum, backdated 5 minutes as upstream does.
import { randomBytes } from 'node:crypto';
import type { CertificateAuthority } from './certificates.js';
import { loadKey } from './keys.js';
import { x509 } from './x509.js';

export { x509 };

const BACKDATE_MS = 5 * 60 * 1000;

const KEY_USAGE: Record<string, number> = {
  'signing': x509.KeyUsageFlags.digitalSignature, 'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation, 'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement, 'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign, 'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly, 'decipher only': x509.KeyUsageFlags.decipherOnly,
};

const EXT_KEY_USAGE: Record<string, string> = {
  'any': '2.5.29.37.0', 'server auth': x509.ExtendedKeyUsage.serverAuth, 'client auth': x509.ExtendedKeyUsage.clientAuth,
  'code signing': x509.ExtendedKeyUsage.codeSigning, 'email protection': x509.ExtendedKeyUsage.emailProtection,
  's/mime': x509.ExtendedKeyUsage.emailProtection, 'ipsec end system': '1.3.6.1.5.5.7.3.5', 'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7', 'timestamping': x509.ExtendedKeyUsage.timeStamping, 'ocsp signing': x509.ExtendedKeyUsage.ocspSigning,
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3', 'netscape sgc': '2.16.840.1.113730.4.1',
};

/** The CA of --cluster-signing-cert-file / --cluster-signing-key-file. */
export async function loadCa(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  return { cert: new x509.X509Certificate(certPem), key: await loadKey(keyPem) };
}

export const parseCsr = (pem: string): x509.Pkcs10CertificateRequest => new x509.Pkcs10CertificateRequest(pem);

export interface SignOptions {
  usages: string[];
  /** Validity; the caller caps it by its maximum. */
  durationMs: number;
  now?: number;
}

export async function signCsr(ca: CertificateAuthority, csr: x509.Pkcs10CertificateRequest, o: SignOptions): Promise<string> {
  if (!(await csr.verify())) throw new Error('the certificate request\'s signature is invalid');
  const now = o.now ?? Date.now();
  let keyUsage = 0;
  for (const u of o.usages) keyUsage |= KEY_USAGE[u] ?? 0;
  const extUsages = o.usages.map((u) => EXT_KEY_USAGE[u]).filter((x): x is string => !!x);
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
  if (keyUsage) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extUsages.length) extensions.push(new x509.ExtendedKeyUsageExtension(extUsages));
  extensions.push(await x509.AuthorityKeyIdentifierExtension.create(ca.key.keys.publicKey));
  // the request's SANs, as requested (the signers decide beforehand which kinds they allow)
  const san = csr.getExtension('2.5.29.17');
  if (san) extensions.push(new x509.SubjectAlternativeNameExtension(san.rawData));
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial.toString('hex'),
    subject: csr.subjectName,
    issuer: ca.cert.subjectName,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(Math.min(now + o.durationMs, ca.cert.notAfter.getTime())),
    publicKey: await csr.publicKey.export(),
    signingKey: ca.key.keys.privateKey,
    signingAlgorithm: ca.key.algorithm,
    extensions,
  });
  return cert.toString('pem');
}
