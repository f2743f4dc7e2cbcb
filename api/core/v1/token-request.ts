// TokenRequest (authentication.k8s.io/v1), the kind of the serviceaccounts/token subresource.
import { arr, int64, kind, obj, ref, str, type Definitions } from '../../schema.js';
import { authn, authnKind, meta } from './names.js';

export const tokenRequestDefinitions: Definitions = {
  [authn('TokenRequest')]: kind(authnKind('TokenRequest'), {
    spec: ref(authn('TokenRequestSpec'), 'The requested token.'),
    status: ref(authn('TokenRequestStatus'), 'The issued token; filled by the server.'),
  }, 'Requests a token for a service account.', { required: ['spec'] }),
  [authn('TokenRequestSpec')]: obj({
    audiences: arr(str(), 'Audiences the token is intended for.'),
    boundObjectRef: ref(authn('BoundObjectReference'), 'Object the token is bound to; the token is invalid once it is deleted.'),
    expirationSeconds: int64('Requested validity of the token; the server may change it.', { default: 3600 }),
  }, 'Parameters of a requested token.', { required: ['audiences'] }),
  [authn('TokenRequestStatus')]: obj({
    expirationTimestamp: ref(meta('Time'), 'When the token expires.'),
    token: str('The opaque bearer token.'),
  }, 'The result of a token request.', { required: ['token', 'expirationTimestamp'] }),
  [authn('BoundObjectReference')]: obj({
    apiVersion: str('API version of the referent.'),
    kind: str('Kind of the referent: Pod or Secret.'),
    name: str('Name of the referent.'),
    uid: str('UID of the referent.'),
  }, 'An object a token is bound to.'),
};
