// authentication.k8s.io/v1: SelfSubjectReview (`kubectl auth whoami`) and TokenReview. Create-only and never
// stored: the answer comes from the request's authenticated user (pkg/apiserver/handlers/reviews.ts).
import { arr, bool, kind, mapOf, obj, ref, str, type Definitions } from '../../schema.js';
import type { GroupVersion, ResourceType } from '../../types.js';

const A = 'io.k8s.api.authentication.v1.';
const group = 'authentication.k8s.io';
const gvk = (k: string) => ({ group, version: 'v1', kind: k });
const strings = (description: string) => arr(str(), description);

export const resources: ResourceType[] = [
  { group, version: 'v1', kind: 'SelfSubjectReview', plural: 'selfsubjectreviews', singular: 'selfsubjectreview', namespaced: false, verbs: ['create'], definition: `${A}SelfSubjectReview` },
  { group, version: 'v1', kind: 'TokenReview', plural: 'tokenreviews', singular: 'tokenreview', namespaced: false, verbs: ['create'], definition: `${A}TokenReview` },
];

export const definitions: Definitions = {
  [`${A}SelfSubjectReview`]: kind(gvk('SelfSubjectReview'), {
    status: ref(`${A}SelfSubjectReviewStatus`, 'Filled in by the server with the user attributes.'),
  }, 'Contains the user information that the kube-apiserver has about the user making this request.'),
  [`${A}SelfSubjectReviewStatus`]: obj({ userInfo: ref(`${A}UserInfo`, 'The user of the request.') }, 'The user making the request.'),
  [`${A}UserInfo`]: obj({
    extra: mapOf(strings('Values.'), 'Any additional information provided by the authenticator.'),
    groups: strings('The names of groups this user is a part of.'),
    uid: str('A unique value that identifies this user across time.'),
    username: str('The name that uniquely identifies this user among all active users.'),
  }, 'The information about the user needed to implement the user.Info interface.'),
  [`${A}TokenReview`]: kind(gvk('TokenReview'), {
    spec: ref(`${A}TokenReviewSpec`, 'The token to review.'),
    status: ref(`${A}TokenReviewStatus`, 'Filled in by the server: whether the token is valid.'),
  }, 'Attempts to authenticate a token to a known user.', { required: ['spec'] }),
  [`${A}TokenReviewSpec`]: obj({ audiences: strings('Audiences the token must be for.'), token: str('The opaque bearer token.') }, 'The token to review.'),
  [`${A}TokenReviewStatus`]: obj({
    audiences: strings('Audiences the token is valid for.'),
    authenticated: bool('Whether the token is valid.'),
    error: str('Why the token could not be checked.'),
    user: ref(`${A}UserInfo`, 'The user the token belongs to.'),
  }, 'The result of a token review.'),
};

export const groupVersion: GroupVersion = { group, version: 'v1', resources, definitions };
