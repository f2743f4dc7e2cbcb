// The apiserver's authenticator from its flags, in upstream's order: client certificates, then tokens, then passwords.
import { readFileSync } from 'node:fs';
import { anonymousAuthenticator } from './anonymous.js';
import { basicFileAuthenticator } from './basic-file.js';
import type { Authenticator } from './interface.js';
import { tokenFileAuthenticator } from './token-file.js';
import { unionAuthenticator, type RequestAuthenticator } from './union.js';
import { x509Authenticator } from './x509.js';

export interface AuthenticationOptions {
  clientCaFile?: string;
  tokenAuthFile?: string;
  basicAuthFile?: string;
  anonymous: boolean;
}

/** Reads every file now, so that a bad one stops the server at start rather than failing requests later. */
export const buildAuthenticator = (o: AuthenticationOptions): RequestAuthenticator => {
  const list: Authenticator[] = [];
  if (o.clientCaFile) list.push(clientCertificateAuthenticator(o.clientCaFile));
  if (o.tokenAuthFile) list.push(tokenFileAuthenticator(o.tokenAuthFile));
  if (o.basicAuthFile) list.push(basicFileAuthenticator(o.basicAuthFile));
  return unionAuthenticator(list, o.anonymous ? anonymousAuthenticator : undefined);
};

const clientCertificateAuthenticator = (path: string): Authenticator => {
  try {
    return x509Authenticator(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`client CA file ${path}: ${(e as Error).message}`);
  }
};

export type { RequestAuthenticator } from './union.js';
export { authenticatedGroup, unionAuthenticator } from './union.js';
export { anonymousAuthenticator, anonymousUser, unauthenticatedGroup } from './anonymous.js';
export { x509Authenticator } from './x509.js';
export { tokenFileAuthenticator } from './token-file.js';
export { basicFileAuthenticator } from './basic-file.js';
export type { Authenticator, AuthnRequest, AuthnResult, UserInfo } from './interface.js';
