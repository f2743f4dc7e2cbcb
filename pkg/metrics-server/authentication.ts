// Who is asking, as a delegating extension apiserver decides (k8s.io/apiserver's DelegatingAuthenticationOptions,
// which metrics-server uses): a client certificate of the authenticating front proxy (the aggregator) with an
// allowed common name vouches for the user named in its request headers; another certificate of the cluster's client
// CA is the user it names; a bearer token is asked of the apiserver (TokenReview); no credentials is
// system:anonymous. The CAs, allowed names and header names come from kube-system/extension-apiserver-authentication,
// re-read every minute as upstream's dynamic CA controllers do.
import { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Client, DelegatedAuth, UserIdentity } from '../client/index.js';

export interface RequestHeaderConfig {
  clientCa: X509Certificate[];
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
}

export interface AuthenticationConfig {
  /** PEM of the cluster's client CA (client-ca-file), when the apiserver publishes one. */
  clientCaPem?: string;
  clientCa: X509Certificate[];
  requestHeader?: RequestHeaderConfig;
  /** PEM of the front-proxy CA, for the TLS server's list of acceptable issuers. */
  requestHeaderCaPem?: string;
}

export const ANONYMOUS: UserIdentity = { user: 'system:anonymous', groups: ['system:unauthenticated'] };

/** Every certificate of a PEM bundle. */
const certificates = (pem: string | undefined): X509Certificate[] =>
  (pem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((c) => new X509Certificate(c));

const list = (json: string | undefined): string[] => {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** The configuration kube-system/extension-apiserver-authentication publishes. */
export async function readAuthenticationConfig(client: Client): Promise<AuthenticationConfig> {
  const cm = await client.configMaps('kube-system').get('extension-apiserver-authentication');
  const data = (cm.data ?? {}) as Record<string, string>;
  const rhCa = data['requestheader-client-ca-file'];
  return {
    clientCaPem: data['client-ca-file'],
    clientCa: certificates(data['client-ca-file']),
    requestHeaderCaPem: rhCa,
    ...(rhCa ? {
      requestHeader: {
        clientCa: certificates(rhCa), allowedNames: list(data['requestheader-allowed-names']),
        usernameHeaders: list(data['requestheader-username-headers']), uidHeaders: list(data['requestheader-uid-headers']),
        groupHeaders: list(data['requestheader-group-headers']), extraHeadersPrefix: list(data['requestheader-extra-headers-prefix']),
      },
    } : {}),
  };
}

const issuedBy = (cert: X509Certificate, cas: X509Certificate[]): boolean => cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey));

const headerValues = (headers: IncomingHttpHeaders, name: string): string[] => {
  const v = headers[name.toLowerCase()];
  return v === undefined ? [] : ([] as string[]).concat(v).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
};

/** The user the front proxy names in its headers (the first non-empty username header), or undefined. */
function fromRequestHeaders(rh: RequestHeaderConfig, headers: IncomingHttpHeaders): UserIdentity | undefined {
  const user = rh.usernameHeaders.map((h) => headerValues(headers, h)[0]).find(Boolean);
  if (!user) return undefined;
  const extra: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const prefix = rh.extraHeadersPrefix.find((p) => name.startsWith(p.toLowerCase()));
    if (!prefix || value === undefined) continue;
    const key = decodeURIComponent(name.slice(prefix.length)).toLowerCase();
    (extra[key] ??= []).push(...([] as string[]).concat(value));
  }
  const uid = rh.uidHeaders.map((h) => headerValues(headers, h)[0]).find(Boolean);
  return {
    user, groups: rh.groupHeaders.flatMap((h) => headerValues(headers, h)),
    ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** Every authenticated user is in system:authenticated (upstream's AuthenticatedGroupAdder). */
const withAuthenticated = (who: UserIdentity): UserIdentity =>
  (who.user === ANONYMOUS.user || who.groups.includes('system:authenticated') ? who : { ...who, groups: [...who.groups, 'system:authenticated'] });

/**
 * The requester, or a reason it is refused (401). A request without credentials is anonymous; a certificate or a
 * token that does not check out is refused, as upstream's union authenticator does when one of them errs.
 */
export async function authenticate(config: AuthenticationConfig, auth: DelegatedAuth, socket: TLSSocket, headers: IncomingHttpHeaders): Promise<UserIdentity | string> {
  const raw = socket.getPeerCertificate?.()?.raw;
  if (raw) {
    const cert = new X509Certificate(raw);
    const cn = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? '';
    const rh = config.requestHeader;
    if (rh && issuedBy(cert, rh.clientCa) && new Date(cert.validTo) > new Date()) {
      if (rh.allowedNames.length && !rh.allowedNames.includes(cn)) return `client certificate CN "${cn}" is not in the allowed names of the request-header CA`;
      const who = fromRequestHeaders(rh, headers);
      if (who) return withAuthenticated(who);
    }
    if (issuedBy(cert, config.clientCa) && new Date(cert.validTo) > new Date()) {
      const groups = cert.subject.split('\n').filter((l) => l.startsWith('O=')).map((l) => l.slice(2));
      return withAuthenticated({ user: cn, groups });
    }
    return 'x509: certificate signed by unknown authority';
  }
  const token = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  if (token) {
    const who = await auth.authenticateToken(token);
    return who ?? 'invalid bearer token';
  }
  return ANONYMOUS;
}
