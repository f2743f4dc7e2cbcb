// Issuing X.509 certificates: a self-signed CA and leaves it signs (serving or client), the way kubeadm shapes them.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { x509 } from './x509.js';
import { generateKey, privateKeyPem, type SigningKey } from './keys.js';

export interface Subject {
  commonName: string;
  /** Kubernetes reads these as the user's groups. */
  organizations?: string[];
}

export interface CertificateAuthority {
  cert: x509.X509Certificate;
  key: SigningKey;
}

export interface IssuedPair {
  certPem: string;
  keyPem: string;
}

const dayMs = 24 * 60 * 60 * 1000;
/** Backdated so that a peer whose clock is a little behind still accepts a brand-new certificate. */
const backdateMs = 5 * 60 * 1000;

const subjectName = (s: Subject): x509.JsonName => [
  ...(s.organizations ?? []).map((o) => ({ O: [o] })),
  { CN: [s.commonName] },
];

/** A positive 127-bit serial: unique enough that no two issued certificates collide. */
const serialNumber = (): string => {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
};

const validity = (days: number): { notBefore: Date; notAfter: Date } => {
  const now = Date.now();
  return { notBefore: new Date(now - backdateMs), notAfter: new Date(now + days * dayMs) };
};

export const createCa = async (commonName: string, days: number, key?: SigningKey): Promise<CertificateAuthority> => {
  const k = key ?? (await generateKey());
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: subjectName({ commonName }),
    ...validity(days),
    keys: k.keys,
    signingAlgorithm: k.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(k.keys.publicKey),
    ],
  });
  return { cert, key: k };
};

export interface LeafRequest {
  subject: Subject;
  usage: 'server' | 'client';
  /** DNS names and IP addresses (serving certificates). */
  sans?: string[];
  days: number;
  /** Re-certify an existing key instead of generating one. */
  key?: SigningKey;
}

export const issueCertificate = async (ca: CertificateAuthority, req: LeafRequest): Promise<IssuedPair & { cert: x509.X509Certificate }> => {
  const k = req.key ?? (await generateKey());
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(
      [req.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.key.keys.publicKey),
  ];
  if (req.sans?.length) {
    extensions.push(new x509.SubjectAlternativeNameExtension(
      req.sans.map((v): x509.JsonGeneralName => ({ type: isIP(v) ? 'ip' : 'dns', value: v }))));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: subjectName(req.subject),
    issuer: ca.cert.subjectName,
    ...validity(req.days),
    publicKey: k.keys.publicKey,
    signingKey: ca.key.keys.privateKey,
    signingAlgorithm: ca.key.algorithm,
    extensions,
  });
  return { cert, certPem: cert.toString('pem'), keyPem: await privateKeyPem(k.keys.privateKey) };
};

/** A PEM PKCS#10 request for the subject, signed with the key (no extensions: what the kubelet's client requests carry). */
export const certificateRequestPem = async (key: SigningKey, subject: Subject): Promise<string> => {
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subjectName(subject), keys: key.keys, signingAlgorithm: key.algorithm });
  return csr.toString('pem');
};
