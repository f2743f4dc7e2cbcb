// The authenticating front proxy (--requestheader-*): a proxy that authenticated the user itself passes who it is in
// headers (X-Remote-User, X-Remote-Group, X-Remote-Extra-<key>). The headers are believed only on a connection whose
// client certificate chains to --requestheader-client-ca-file and, when --requestheader-allowed-names is set, has one
// of those common names (upstream: apiserver/pkg/authentication/request/headerrequest with the x509 verifier).
import { unauthorized } from '../apimachinery/errors.js';
import type { Authenticator, AuthnRequest, UserInfo } from './interface.js';
import { subjectFields } from './subject.js';
import { parseCaBundle, verifyChain } from './x509.js';

export interface RequestHeaderOptions {
  caBundlePem: string;
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders?: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

const values = (req: AuthnRequest, name: string): string[] => {
  const v = req.headers[name.toLowerCase()];
  if (v === undefined) return [];
  // Node joins repeated headers with ", " except set-cookie; groups may be sent as repeated headers.
  return (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean);
};

const first = (req: AuthnRequest, names: string[]): string | undefined => {
  for (const n of names) {
    const v = req.headers[n.toLowerCase()];
    const s = Array.isArray(v) ? v[0] : v;
    if (s) return s;
  }
  return undefined;
};

/** Upstream unescapes the extra key (it travels percent-encoded) and lower-cases it. */
const extraKey = (suffix: string): string => {
  try {
    return decodeURIComponent(suffix).toLowerCase();
  } catch {
    return suffix.toLowerCase();
  }
};

export const requestHeaderAuthenticator = (o: RequestHeaderOptions): Authenticator => {
  const roots = parseCaBundle(o.caBundlePem);
  const prefixes = o.extraHeaderPrefixes.map((p) => p.toLowerCase());
  const consumedOf = (req: AuthnRequest): string[] => {
    const names = [...o.usernameHeaders, ...(o.uidHeaders ?? []), ...o.groupHeaders].map((h) => h.toLowerCase());
    for (const h of Object.keys(req.headers)) if (prefixes.some((p) => h.toLowerCase().startsWith(p))) names.push(h.toLowerCase());
    return names;
  };
  return {
    name: 'requestheader',
    async authenticate(req) {
      const leaf = req.peerCertificate;
      if (!leaf) return null;
      // A certificate that is not the proxy's is an error here, which the union drops when x509 knows the caller.
      verifyChain(leaf, req.peerIntermediates ?? [], roots, Date.now());
      if (o.allowedNames.length) {
        const cn = subjectFields(leaf).commonNames[0] ?? '';
        if (!o.allowedNames.includes(cn)) throw unauthorized(`x509: subject with cn=${cn} is not in the allowed list`);
      }
      const name = first(req, o.usernameHeaders);
      if (!name) return null;
      const user: UserInfo = { name, groups: o.groupHeaders.flatMap((h) => values(req, h)) };
      const uid = first(req, o.uidHeaders ?? []);
      if (uid) user.uid = uid;
      const extra: Record<string, string[]> = {};
      for (const [h, v] of Object.entries(req.headers)) {
        const lower = h.toLowerCase();
        const prefix = prefixes.find((p) => lower.startsWith(p));
        if (!prefix || v === undefined) continue;
        const key = extraKey(lower.slice(prefix.length));
        (extra[key] ??= []).push(...(Array.isArray(v) ? v : v.split(',').map((s) => s.trim())));
      }
      if (Object.keys(extra).length) user.extra = extra;
      return { user, consumedHeaders: consumedOf(req) };
    },
  };
};
