// The serving TLS versions and cipher suites: --tls-min-version and --tls-cipher-suites, named as Go's crypto/tls
// names them (what kube-apiserver reads), turned into OpenSSL's names for Node.
import { DEFAULT_CIPHERS, type SecureVersion } from 'node:tls';

/** TLS 1.3 suites in Go's order on AES hardware (AES-128-GCM first): Node's default puts AES-256-GCM first. */
const TLS13 = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** Go's suite names (secure, then insecure ones, which upstream accepts too) → OpenSSL's. */
const SUITES: Record<string, string> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
};

const VERSIONS: Record<string, SecureVersion> = { VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' };

export interface ServingTls {
  minVersion: SecureVersion;
  ciphers: string;
}

/**
 * Node's TLS options for the flags; throws upstream's message for a name it does not know. TLS 1.3's suites are not
 * configurable (as in Go): named ones are accepted and the TLS 1.3 set stays.
 */
export function servingTls(minVersion = '', cipherSuites: readonly string[] = []): ServingTls {
  const version = minVersion ? VERSIONS[minVersion] : 'TLSv1.2';
  if (!version) throw new Error(`unknown tls version "${minVersion}"`);
  if (version === 'TLSv1.3' && cipherSuites.length) throw new Error('cipher suites may not be specified when --tls-min-version is \'VersionTLS13\'');
  const tls12 = cipherSuites.length
    ? cipherSuites.filter((name) => !TLS13.includes(name)).map((name) => {
      const openssl = SUITES[name];
      if (!openssl) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
      return openssl;
    })
    : DEFAULT_CIPHERS.split(':').filter((c) => !c.startsWith('TLS_'));
  return { minVersion: version, ciphers: [...TLS13, ...tls12].join(':') };
}
