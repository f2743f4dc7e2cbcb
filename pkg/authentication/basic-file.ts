// --basic-auth-file: the legacy password file `password,user,uid,"group1,group2"` for HTTP Basic.
import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '../apimachinery/errors.js';
import type { Authenticator, UserInfo } from './interface.js';
import { schemeCredential } from './authorization-header.js';
import { loadCredentialsFile } from './credentials-file.js';
import { cloneJson } from '../apimachinery/json-clone.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

export const basicFileAuthenticator = (path: string): Authenticator => {
  // Passwords are kept only as digests, compared in constant time.
  const users = new Map<string, { password: Buffer; user: UserInfo }>(
    loadCredentialsFile(path, 'password').map((e) => [e.user.name, { password: digest(e.secret), user: e.user }]));
  return {
    name: 'basic-file',
    authenticate(req) {
      const encoded = schemeCredential(req, 'basic');
      if (encoded === undefined) return Promise.resolve(null);
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return Promise.resolve(null); // not a Basic credential at all, as Go's BasicAuth() sees it
      const entry = users.get(decoded.slice(0, colon));
      if (!entry || !timingSafeEqual(entry.password, digest(decoded.slice(colon + 1)))) {
        return Promise.reject(unauthorized('invalid username/password combination'));
      }
      return Promise.resolve({ user: cloneJson(entry.user), consumedHeaders: ['authorization'] });
    },
  };
};
