// --client-ca-file: the TLS peer's certificate must chain to a client CA and be valid now; CN is the user, O the groups.
import { X509Certificate } from 'node:crypto';
import { unauthorized } from '../apimachinery/errors.js';
import type { Authenticator, AuthnRequest } from './interface.js';
import { subjectFields } from './subject.js';

const clientAuth = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsage = '2.5.29.37.0';
const maxChainLength = 10;

/** Every certificate in a PEM bundle (a CA file may hold several roots). */
export const parseCaBundle = (pem: string): X509Certificate[] => {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate found in the client CA bundle');
  return blocks.map((b) => new X509Certificate(b));
};

const checkValidity = (cert: X509Certificate, now: number): void => {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  if (now < from || now > to) {
    const when = new Date(now).toISOString();
    throw unauthorized(`x509: certificate has expired or is not yet valid: current time ${when} is ${now > to ? `after ${new Date(to).toISOString()}` : `before ${new Date(from).toISOString()}`}`);
  }
};

const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean =>
  cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

/** Walks leaf -> intermediates -> a root of the bundle, checking each link's signature and validity window. */
export const verifyChain = (leaf: X509Certificate, intermediates: X509Certificate[], roots: X509Certificate[], now: number): void => {
  const usages = leaf.keyUsage as string[] | undefined; // node: the extended key usages; absent = any
  if (usages && !usages.includes(clientAuth) && !usages.includes(anyExtendedKeyUsage)) {
    throw unauthorized('x509: certificate specifies an incompatible key usage');
  }
  let cert = leaf;
  for (let depth = 0; depth < maxChainLength; depth++) {
    checkValidity(cert, now);
    if (roots.some((r) => r.raw.equals(cert.raw))) return;
    const root = roots.find((r) => issuedBy(cert, r));
    if (root) {
      checkValidity(root, now);
      return;
    }
    const parent = intermediates.find((i) => i.ca && issuedBy(cert, i));
    if (!parent) break;
    cert = parent;
  }
  throw unauthorized('x509: certificate signed by unknown authority');
};

export const x509Authenticator = (caBundlePem: string): Authenticator => {
  const roots = parseCaBundle(caBundlePem);
  return {
    name: 'x509',
    authenticate(req: AuthnRequest) {
      const leaf = req.peerCertificate;
      if (!leaf) return Promise.resolve(null);
      try {
        verifyChain(leaf, req.peerIntermediates ?? [], roots, Date.now());
      } catch (e) {
        return Promise.reject(e as Error);
      }
      const { commonNames: [name], organizations } = subjectFields(leaf);
      // Upstream: no common name is no identity from this certificate; the next authenticator may still know the caller.
      if (!name) return Promise.resolve(null);
      return Promise.resolve({ user: { name, groups: organizations } });
    },
  };
};
