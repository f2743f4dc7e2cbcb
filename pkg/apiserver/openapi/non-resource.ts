// The documents of the non-resource web services a 1.32 apiserver also publishes under /openapi/v3 (and in
// /openapi/v2): the log files handler ("logs") and the service account issuer's discovery ("openid/v1/jwks",
// ".well-known/openid-configuration"), each only while it is served.
import type { PathItem } from './operations.js';

const UNAUTHORIZED = { '401': { description: 'Unauthorized' } };

/** /logs/ and /logs/{logpath}: operations without a description or a 200, as upstream's routes.Logs declares them. */
export const logsPaths = (): Record<string, PathItem> => ({
  '/logs/': { get: { operationId: 'logFileListHandler', responses: UNAUTHORIZED, tags: ['logs'] } },
  '/logs/{logpath}': {
    get: { operationId: 'logFileHandler', responses: UNAUTHORIZED, tags: ['logs'] },
    parameters: [{ description: 'path to the log', in: 'path', name: 'logpath', required: true, schema: { type: 'string', uniqueItems: true } }],
  },
});

const stringResponse = (mediaType: string) => ({
  '200': { description: 'OK', content: { [mediaType]: { schema: { type: 'string' as const } } } },
  ...UNAUTHORIZED,
});

export const openIdConfigurationPaths = (): Record<string, PathItem> => ({
  '/.well-known/openid-configuration/': {
    get: {
      description: 'get service account issuer OpenID configuration, also known as the \'OIDC discovery doc\'',
      operationId: 'getServiceAccountIssuerOpenIDConfiguration', responses: stringResponse('application/json'), tags: ['WellKnown'],
    },
  },
});

export const openIdKeysetPaths = (): Record<string, PathItem> => ({
  '/openid/v1/jwks/': {
    get: {
      description: 'get service account issuer OpenID JSON Web Key Set (contains public token verification keys)',
      operationId: 'getServiceAccountIssuerOpenIDKeyset', responses: stringResponse('application/jwk-set+json'), tags: ['openid'],
    },
  },
});
