// --client-ca-file: the TLS peer's certificate must chain to a client CA and be valid now; CN is the user, O the groups.
import { X509Certificate } from 'node:crypto';
import { unauthorized } from '../apimachinery/errors.js';
import type { Authenticator, AuthnRequest, UserInfo } from './interface.js';
import { subjectFields } from './subject.js';
import { TtlCache } from './ttl-cache.js';

const clientAuth = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsage = '2.5.29.37.0';
const maxChainLength = 10;

/** Every certificate in a PEM bundle (a CA file may hold several roots). */
export const parseCaBundle = (pem: string): X509Certificate[] => {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate found in the client CA bundle');
  return blocks.map((b) => new X509Certificate(b));
};

/** Throws unless the certificate is valid now; returns its notAfter (epoch ms). */
const checkValidity = (cert: X509Certificate, now: number): number => {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  if (now < from || now > to) {
    const when = new Date(now).toISOString();
    throw unauthorized(`x509: certificate has expired or is not yet valid: current time ${when} is ${now > to ? `after ${new Date(to).toISOString()}` : `before ${new Date(from).toISOString()}`}`);
  }
  return to;
};

const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean =>
  cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

/**
 * Walks leaf -> intermediates -> a root of the bundle, checking each link's signature and validity window; returns
 * when the chain stops being valid (the earliest notAfter on it, epoch ms).
 */
export const verifyChain = (leaf: X509Certificate, intermediates: X509Certificate[], roots: X509Certificate[], now: number): number => {
  const usages = leaf.keyUsage as string[] | undefined; // node: the extended key usages; absent = any
  if (usages && !usages.includes(clientAuth) && !usages.includes(anyExtendedKeyUsage)) {
    throw unauthorized('x509: certificate specifies an incompatible key usage');
  }
  let cert = leaf;
  let until = Infinity;
  for (let depth = 0; depth < maxChainLength; depth++) {
    until = Math.min(until, checkValidity(cert, now));
    if (roots.some((r) => r.raw.equals(cert.raw))) return until;
    const root = roots.find((r) => issuedBy(cert, r));
    if (root) return Math.min(until, checkValidity(root, now));
    const parent = intermediates.find((i) => i.ca && issuedBy(cert, i));
    if (!parent) break;
    cert = parent;
  }
  throw unauthorized('x509: certificate signed by unknown authority');
};

export interface X509Options {
  /** Verified chains kept at most (default 4096; the oldest goes first). */
  maxCached?: number;
  now?: () => number;
}

/**
 * Verified chains are cached by the SHA-256 of their certificates' DER until the chain's first notAfter: a client
 * opening many connections, or thousands of clients with a certificate each, pays for the signature checks and the
 * subject parsing once, not per connection. Refusals are not cached.
 */
export const x509Authenticator = (caBundlePem: string, o: X509Options = {}): Authenticator => {
  const roots = parseCaBundle(caBundlePem);
  const now = o.now ?? Date.now;
  /** null: a valid chain whose leaf names no user. */
  const verified = new TtlCache<UserInfo | null>(now, o.maxCached ?? 4096);
  return {
    name: 'x509',
    authenticate(req: AuthnRequest) {
      const leaf = req.peerCertificate;
      if (!leaf) return Promise.resolve(null);
      const intermediates = req.peerIntermediates ?? [];
      const key = [leaf, ...intermediates].map((c) => c.fingerprint256).join('/');
      let user = verified.get(key);
      if (user === undefined) {
        const at = now();
        let until: number;
        try {
          until = verifyChain(leaf, intermediates, roots, at);
        } catch (e) {
          return Promise.reject(e as Error);
        }
        const { commonNames: [name], organizations } = subjectFields(leaf);
        // Upstream: no common name is no identity from this certificate; the next authenticator may still know the caller.
        user = name ? { name, groups: organizations } : null;
        verified.set(key, user, until - at);
      }
      return Promise.resolve(user && { user });
    },
  };
};
