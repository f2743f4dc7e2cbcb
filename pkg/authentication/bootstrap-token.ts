// --enable-bootstrap-token-auth: bearer tokens `<id>.<secret>` backed by the Secret kube-system/bootstrap-token-<id>
// (upstream plugin/pkg/auth/authenticator/token/bootstrap). A token this authenticator cannot vouch for (another form,
// no such Secret, a wrong secret, expired, not for authentication, being deleted, bad extra groups) is simply not
// authenticated by it: it answers null and the other token authenticators still have their say, as upstream's
// returns (nil, false, nil); why is logged at debug level, as upstream logs it at V(3).
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { KubeObject } from '../../api/types.js';
import {
  BOOTSTRAP_TOKEN_ID_KEY, BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_KEY, BOOTSTRAP_TOKEN_SECRET_PREFIX,
  BOOTSTRAP_TOKEN_SECRET_TYPE, BOOTSTRAP_TOKEN_USAGE_AUTHENTICATION, BOOTSTRAP_USER_PREFIX, BOOTSTRAP_TOKEN_EXTRA_GROUPS_KEY,
  bootstrapGroups, parseBootstrapToken, secretData, tokenExpiration,
} from '../apimachinery/bootstrap-token.js';
import { unauthorized } from '../apimachinery/errors.js';
import { schemeCredential } from './authorization-header.js';
import type { Authenticator, AuthnResult } from './interface.js';
import type { ObjectLookup } from './serviceaccount/tokens.js';

export interface BootstrapTokenOptions {
  /** Reads kube-system Secrets (the apiserver's watch cache). */
  lookup: ObjectLookup;
  logger?: Pick<Logger, 'debug'>;
  now?: () => number;
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const bootstrapTokenAuthenticator = (o: BootstrapTokenOptions): Authenticator => {
  const now = o.now ?? Date.now;
  const refuse = (secret: KubeObject, why: string): null => {
    o.logger?.debug(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${secret.metadata?.name} matching bearer token ${why}`);
    return null;
  };

  /** The user of a token, or null (with the reason logged) when this authenticator does not accept it. */
  const check = async (token: string): Promise<AuthnResult | null> => {
    const parsed = parseBootstrapToken(token);
    if (!parsed) return null;
    const name = BOOTSTRAP_TOKEN_SECRET_PREFIX + parsed.id;
    const secret = await o.lookup('secrets', BOOTSTRAP_TOKEN_NAMESPACE, name);
    if (!secret) {
      o.logger?.debug(`No secret of name ${name} to match bootstrap bearer token`);
      return null;
    }
    if (secret.metadata?.deletionTimestamp) return refuse(secret, 'is deleted and awaiting removal');
    if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !secret.data) return refuse(secret, `has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}.`);
    if (!sameText(secretData(secret, BOOTSTRAP_TOKEN_SECRET_KEY), parsed.secret)) return refuse(secret, `has invalid value for key ${BOOTSTRAP_TOKEN_SECRET_KEY}.`);
    if (secretData(secret, BOOTSTRAP_TOKEN_ID_KEY) !== parsed.id) return refuse(secret, `has invalid value for key ${BOOTSTRAP_TOKEN_ID_KEY}, expected ${parsed.id}.`);
    const { expired, expiresAt } = tokenExpiration(secret, now());
    if (expired) return refuse(secret, 'has expired.');
    if (secretData(secret, BOOTSTRAP_TOKEN_USAGE_AUTHENTICATION) !== 'true') return refuse(secret, `not marked ${BOOTSTRAP_TOKEN_USAGE_AUTHENTICATION}=true.`);
    let groups: string[];
    try {
      groups = bootstrapGroups(secret);
    } catch (e) {
      return refuse(secret, `has invalid value for key ${BOOTSTRAP_TOKEN_EXTRA_GROUPS_KEY}: ${(e as Error).message}.`);
    }
    return {
      user: { name: BOOTSTRAP_USER_PREFIX + parsed.id, groups },
      consumedHeaders: ['authorization'],
      // the token cache keeps an acceptance no longer than the token lives, and checks the Secret again on each hit
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      revalidate: async () => {
        if (!(await check(token))) throw unauthorized('bootstrap token is no longer valid');
      },
    };
  };

  return {
    name: 'bootstrap-token',
    async authenticate(req) {
      const token = schemeCredential(req, 'bearer');
      return token === undefined ? null : check(token);
    },
  };
};
