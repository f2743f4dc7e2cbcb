// authorization.k8s.io/v1: the access review APIs. Create-only and never stored: the answer is computed
// by the apiserver's authorizer (pkg/apiserver/handlers/reviews.ts).
import { arr, bool, kind, mapOf, obj, ref, str, type Definitions } from '../../schema.js';
import type { GroupVersion, ResourceType } from '../../types.js';

const A = 'io.k8s.api.authorization.v1.';
const group = 'authorization.k8s.io';
const gvk = (k: string) => ({ group, version: 'v1', kind: k });
const strings = (description: string) => arr(str(), description);

const review = (k: string, plural: string, namespaced: boolean): ResourceType => ({
  group, version: 'v1', kind: k, plural, singular: k.toLowerCase(), namespaced, verbs: ['create'], definition: A + k,
});

export const resources: ResourceType[] = [
  review('LocalSubjectAccessReview', 'localsubjectaccessreviews', true),
  review('SelfSubjectAccessReview', 'selfsubjectaccessreviews', false),
  review('SelfSubjectRulesReview', 'selfsubjectrulesreviews', false),
  review('SubjectAccessReview', 'subjectaccessreviews', false),
];

const selectorRequirement = (what: string) => obj({
  key: str(`The ${what} key the requirement applies to.`),
  operator: str('In, NotIn, Exists, DoesNotExist.'),
  values: strings('The values.'),
}, `One ${what} selector requirement.`, { required: ['key', 'operator'] });

const accessStatus = ref(`${A}SubjectAccessReviewStatus`, 'Filled in by the server: whether the request is allowed.');
const accessSpec = obj({
  extra: mapOf(strings('Values.'), 'Extra of the user to test.'),
  groups: strings('Groups of the user to test.'),
  nonResourceAttributes: ref(`${A}NonResourceAttributes`, 'A non-resource request.'),
  resourceAttributes: ref(`${A}ResourceAttributes`, 'A resource request.'),
  uid: str('UID of the user to test.'),
  user: str('The user to test.'),
}, 'A request and the user to check it for.');

export const definitions: Definitions = {
  [`${A}SubjectAccessReview`]: kind(gvk('SubjectAccessReview'), { spec: ref(`${A}SubjectAccessReviewSpec`, 'The request being evaluated.'), status: accessStatus },
    'Checks whether or not a user or group can perform an action.', { required: ['spec'] }),
  [`${A}LocalSubjectAccessReview`]: kind(gvk('LocalSubjectAccessReview'), { spec: ref(`${A}SubjectAccessReviewSpec`, 'The request being evaluated; its namespace must be the review\'s.'), status: accessStatus },
    'Checks whether or not a user or group can perform an action in a given namespace.', { required: ['spec'] }),
  [`${A}SelfSubjectAccessReview`]: kind(gvk('SelfSubjectAccessReview'), { spec: ref(`${A}SelfSubjectAccessReviewSpec`, 'The request being evaluated.'), status: accessStatus },
    'Checks whether or the current user can perform an action.', { required: ['spec'] }),
  [`${A}SelfSubjectRulesReview`]: kind(gvk('SelfSubjectRulesReview'), {
    spec: ref(`${A}SelfSubjectRulesReviewSpec`, 'The namespace to list the rules of.'),
    status: ref(`${A}SubjectRulesReviewStatus`, 'The rules the current user has in that namespace.'),
  }, 'Enumerates the set of actions the current user can perform within a namespace.', { required: ['spec'] }),
  [`${A}SubjectAccessReviewSpec`]: accessSpec,
  [`${A}SelfSubjectAccessReviewSpec`]: obj({
    nonResourceAttributes: ref(`${A}NonResourceAttributes`, 'A non-resource request.'),
    resourceAttributes: ref(`${A}ResourceAttributes`, 'A resource request.'),
  }, 'A request to check for the current user.'),
  [`${A}SelfSubjectRulesReviewSpec`]: obj({ namespace: str('Namespace to evaluate rules for.') }, 'The namespace of a rules review.'),
  [`${A}ResourceAttributes`]: obj({
    fieldSelector: ref(`${A}FieldSelectorAttributes`, 'The field selector of a list or watch.'),
    group: str('API group of the resource; "*" means all.'),
    labelSelector: ref(`${A}LabelSelectorAttributes`, 'The label selector of a list or watch.'),
    name: str('Name of the resource; "" means all.'),
    namespace: str('Namespace of the action; "" means all namespaces (cluster-scoped resources too).'),
    resource: str('One of the existing resource types; "*" means all.'),
    subresource: str('One of the existing subresources; "" means none.'),
    verb: str('A Kubernetes verb (get, list, watch, create, update, delete, proxy, ...); "*" means all.'),
    version: str('API version of the resource; "*" means all.'),
  }, 'The attributes of a resource request.'),
  [`${A}NonResourceAttributes`]: obj({ path: str('The URL path.'), verb: str('The standard HTTP verb.') }, 'The attributes of a non-resource request.'),
  [`${A}FieldSelectorAttributes`]: obj({ rawSelector: str('The selector as in a query.'), requirements: arr(selectorRequirement('field'), 'Parsed requirements.') }, 'A field selector.'),
  [`${A}LabelSelectorAttributes`]: obj({ rawSelector: str('The selector as in a query.'), requirements: arr(selectorRequirement('label'), 'Parsed requirements.') }, 'A label selector.'),
  [`${A}SubjectAccessReviewStatus`]: obj({
    allowed: bool('Whether the action is allowed.'),
    denied: bool('Whether the action is explicitly denied (allowed is then false).'),
    evaluationError: str('An error while checking; the answer may still be given.'),
    reason: str('Why the action is allowed or denied.'),
  }, 'The result of an access review.', { required: ['allowed'] }),
  [`${A}SubjectRulesReviewStatus`]: obj({
    evaluationError: str('An error while listing the rules.'),
    incomplete: bool('True when the list is incomplete (an authorizer cannot list rules, or an error happened).'),
    nonResourceRules: arr(ref(`${A}NonResourceRule`), 'Non-resource URL rules.'),
    resourceRules: arr(ref(`${A}ResourceRule`), 'Resource rules.'),
  }, 'The rules a user has in a namespace.', { required: ['resourceRules', 'nonResourceRules', 'incomplete'] }),
  [`${A}ResourceRule`]: obj({
    apiGroups: strings('API groups.'),
    resourceNames: strings('Names of the objects; empty means all.'),
    resources: strings('Resources.'),
    verbs: strings('Verbs.'),
  }, 'A rule over resources.', { required: ['verbs'] }),
  [`${A}NonResourceRule`]: obj({ nonResourceURLs: strings('URL paths; "*" suffix matches a prefix.'), verbs: strings('Verbs.') }, 'A rule over non-resource URLs.', { required: ['verbs'] }),
};

export const groupVersion: GroupVersion = { group, version: 'v1', resources, definitions };
