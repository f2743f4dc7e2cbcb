// --token-auth-file: static bearer tokens from upstream's CSV `token,user,uid,"group1,group2"`.
import { unauthorized } from '../apimachinery/errors.js';
import type { Authenticator, UserInfo } from './interface.js';
import { schemeCredential } from './authorization-header.js';
import { loadCredentialsFile } from './credentials-file.js';
import { cloneJson } from '../apimachinery/json-clone.js';

export const tokenFileAuthenticator = (path: string): Authenticator => {
  // A later line with the same token wins, as upstream's map does.
  const tokens = new Map<string, UserInfo>(loadCredentialsFile(path, 'token').map((e) => [e.secret, e.user]));
  return {
    name: 'token-file',
    authenticate(req) {
      const token = schemeCredential(req, 'bearer');
      if (token === undefined) return Promise.resolve(null);
      const user = tokens.get(token);
      if (!user) return Promise.reject(unauthorized('invalid bearer token'));
      return Promise.resolve({ user: cloneJson(user), consumedHeaders: ['authorization'] });
    },
  };
};
