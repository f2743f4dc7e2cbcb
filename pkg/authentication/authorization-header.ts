// The credential of one scheme in the Authorization header, as upstream reads it (scheme case-insensitive).
import type { AuthnRequest } from './interface.js';

export const authorizationHeader = (req: AuthnRequest): string | undefined => {
  const raw = req.headers['authorization'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
};

/** The part after `<scheme> `, or undefined when the header is absent, of another scheme, or empty. */
export const schemeCredential = (req: AuthnRequest, scheme: string): string | undefined => {
  const value = authorizationHeader(req);
  if (!value) return undefined;
  const [kind, credential] = value.split(' ');
  if (!kind || kind.toLowerCase() !== scheme || !credential) return undefined;
  return credential;
};
