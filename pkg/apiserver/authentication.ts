// The apiserver's side of authentication: the authenticators of its flags (with the generated service-account key
// pair as default), the lookups that let a service-account token die with its account or pod, and the token APIs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { KubeObject } from '../../api/types.js';
import { isStatusError } from '../apimachinery/errors.js';
import { buildAuthentication, type Authentication, type ObjectLookup } from '../authentication/index.js';
import { LEGACY_TOKEN_LAST_USED_LABEL } from '../apimachinery/legacy-service-account-token.js';
import { systemContext } from '../registry/context.js';
import { patchBuilder } from '../registry/generic/patch.js';
import { update } from '../registry/generic/update.js';
import type { RegistrySet } from '../registry/index.js';
import type { ApiServerConfig } from './config.js';
import { registerTokenRoutes } from './handlers/token-request.js';

export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** Reads from the watch cache; on a miss, once more consistently (a token issued a moment ago for a new account). */
export const registryLookup = (registries: RegistrySet): ObjectLookup => async (resource, namespace, name) => {
  const reg = registries.get('', 'v1', resource);
  if (!reg) return undefined;
  const cached = reg.peek(namespace, name)?.object;
  if (cached) return cached;
  try {
    return (await reg.get(systemContext(namespace), name)).object as KubeObject;
  } catch (e) {
    if (isStatusError(e) && e.code === 404) return undefined;
    throw e;
  }
};

/**
 * Upstream's legacy-token tracking: a merge patch of the Secret's last-used label, as the apiserver itself; a failure
 * is logged and the request goes on.
 */
const legacyTokenMarker = (registries: RegistrySet, config: ApiServerConfig) => async (secret: KubeObject, day: string): Promise<void> => {
  const reg = registries.get('', 'v1', 'secrets');
  const { namespace, name, uid } = secret.metadata ?? {};
  if (!reg || !name) return;
  const ctx = systemContext(namespace);
  try {
    await update(reg, ctx, patchBuilder(reg, ctx, name, 'merge', { metadata: { uid, labels: { [LEGACY_TOKEN_LAST_USED_LABEL]: day } } }, false));
  } catch (err) {
    config.logger.error({ err, secret: `${namespace}/${name}` }, 'failed to label a legacy service account token with its last-used date');
  }
};

export interface ApiServerAuthentication extends Authentication {
  /** Registers TokenRequest, TokenReview and the OpenID discovery documents. */
  register(app: FastifyInstance, externalUrl: () => string): void;
}

export async function createAuthentication(config: ApiServerConfig, registries: RegistrySet): Promise<ApiServerAuthentication> {
  const pki = join(config.dataDir, 'pki');
  const signingKeyFile = config.serviceAccountSigningKeyFile || (existsSync(join(pki, 'sa.key')) ? join(pki, 'sa.key') : undefined);
  const keyFiles = config.serviceAccountKeyFiles?.length ? config.serviceAccountKeyFiles
    : existsSync(join(pki, 'sa.pub')) && !config.serviceAccountSigningKeyFile ? [join(pki, 'sa.pub')] : [];
  const lookup = registryLookup(registries);
  const authn = await buildAuthentication({
    clientCaFile: config.clientCaFile, tokenAuthFile: config.tokenAuthFile, basicAuthFile: config.basicAuthFile, anonymous: config.anonymousAuth,
    requestHeader: config.requestHeader,
    serviceAccount: {
      issuers: config.serviceAccountIssuers?.length ? config.serviceAccountIssuers : [DEFAULT_SERVICE_ACCOUNT_ISSUER],
      keyFiles, signingKeyFile, apiAudiences: config.apiAudiences, lookup, markUsed: legacyTokenMarker(registries, config),
    },
    bootstrapToken: config.enableBootstrapTokenAuth ? { lookup, logger: config.logger } : undefined,
    oidc: config.oidc,
    webhook: config.authenticationTokenWebhookConfigFile
      ? { kubeconfigFile: config.authenticationTokenWebhookConfigFile, cacheTtlMs: config.authenticationTokenWebhookCacheTtlMs }
      : undefined,
  });
  return {
    ...authn,
    register(app, externalUrl) {
      registerTokenRoutes(app, {
        authentication: authn,
        registry: (plural) => registries.get('', 'v1', plural),
        decoder: registries.decoder,
        externalUrl,
        jwksUri: config.serviceAccountJwksUri,
        maxExpirationSeconds: config.serviceAccountMaxTokenExpirationSeconds,
        extendExpiration: config.serviceAccountExtendTokenExpiration,
      });
    },
  };
}
