// The review APIs, answered and never stored: SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectAccessReview (`kubectl auth can-i`), SelfSubjectRulesReview (`kubectl auth can-i --list`)
// and SelfSubjectReview (`kubectl auth whoami`). Each is a create that returns the object with its status.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findResource } from '../../../api/index.js';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, fieldCause, invalid, namespaceMismatch, type StatusCause } from '../../apimachinery/errors.js';
import type { UserInfo } from '../../authentication/interface.js';
import type { Attributes, Authorizer, PolicyRule, RuleResolver } from '../../authorization/index.js';
import { sendObject } from '../respond.js';
import type { Decoder } from '../../registry/generic/decode.js';
import { typedBody } from './typed-body.js';

export interface ReviewDeps {
  authorizer: Authorizer;
  rules: RuleResolver;
  decoder: Decoder;
}

const AUTHZ = '/apis/authorization.k8s.io/v1';
const AUTHN = '/apis/authentication.k8s.io/v1';

export function registerReviews(app: FastifyInstance, deps: ReviewDeps): void {
  app.post(`${AUTHZ}/subjectaccessreviews`, (req, reply) => subjectAccessReview(deps, req, reply, 'SubjectAccessReview'));
  app.post(`${AUTHZ}/namespaces/:namespace/localsubjectaccessreviews`, (req, reply) => subjectAccessReview(deps, req, reply, 'LocalSubjectAccessReview'));
  app.post(`${AUTHZ}/selfsubjectaccessreviews`, (req, reply) => subjectAccessReview(deps, req, reply, 'SelfSubjectAccessReview'));
  app.post(`${AUTHZ}/selfsubjectrulesreviews`, (req, reply) => selfSubjectRulesReview(deps, req, reply));
  app.post(`${AUTHN}/selfsubjectreviews`, (req, reply) => selfSubjectReview(deps, req, reply));
}

function send(req: FastifyRequest, reply: FastifyReply, group: string, plural: string, object: KubeObject): FastifyReply {
  const rt = findResource(group, 'v1', plural)!;
  return sendObject({ rt, request: req, reply, warnings: [], now: new Date() }, { object }, 201);
}

/** The Attributes a review's spec describes, for `user`. */
export function reviewAttributes(spec: KubeObject, user: UserInfo): Attributes {
  const r = spec.resourceAttributes as Record<string, any> | undefined;
  if (r) {
    return {
      user, verb: r.verb ?? '', isResourceRequest: true, path: '', namespace: r.namespace ?? '', apiGroup: r.group ?? '',
      apiVersion: r.version ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '',
      fieldSelector: r.fieldSelector?.rawSelector, labelSelector: r.labelSelector?.rawSelector,
    };
  }
  const n = (spec.nonResourceAttributes ?? {}) as Record<string, string | undefined>;
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

async function subjectAccessReview(deps: ReviewDeps, req: FastifyRequest, reply: FastifyReply, kind: 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview'): Promise<FastifyReply> {
  const group = 'authorization.k8s.io';
  const obj = typedBody(deps.decoder, req, group, kind);
  const spec = (obj.spec ?? {}) as KubeObject;
  const causes: StatusCause[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    causes.push(fieldCause('FieldValueInvalid', 'spec.nonResourceAttributes', 'Invalid value: "null": cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    causes.push(fieldCause('FieldValueInvalid', 'spec.resourceAttributes', 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  let user: UserInfo;
  const meta = { ...(obj.metadata ?? {}) };
  if (kind === 'SelfSubjectAccessReview') {
    user = req.user!;
  } else {
    if (!spec.user && !(spec.groups?.length)) causes.push(fieldCause('FieldValueInvalid', 'spec.user', 'Invalid value: "": at least one of user or group must be specified'));
    user = { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
  }
  if (kind === 'LocalSubjectAccessReview') {
    const ns = (req.params as { namespace: string }).namespace;
    if (meta.namespace && meta.namespace !== ns) throw namespaceMismatch();
    meta.namespace = ns;
    if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== ns) {
      causes.push(fieldCause('FieldValueInvalid', 'spec.resourceAttributes.namespace', `Invalid value: "${spec.resourceAttributes.namespace ?? ''}": must match metadata.namespace`));
    }
    if (spec.nonResourceAttributes) causes.push(fieldCause('FieldValueInvalid', 'spec.nonResourceAttributes', 'Invalid value: "null": disallowed on this kind of request'));
  }
  if (causes.length) throw invalid(group, kind, meta.name ?? '', causes);
  const r = await deps.authorizer.authorize(reviewAttributes(spec, user));
  const status: Record<string, unknown> = { allowed: r.decision === 'allow' };
  if (r.decision === 'deny') status.denied = true;
  if (r.reason) status.reason = r.reason;
  return send(req, reply, group, `${kind.toLowerCase()}s`, {
    apiVersion: `${group}/v1`, kind, metadata: { ...meta, creationTimestamp: null }, spec, status,
  });
}

async function selfSubjectRulesReview(deps: ReviewDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const group = 'authorization.k8s.io';
  const obj = typedBody(deps.decoder, req, group, 'SelfSubjectRulesReview');
  const namespace = (obj.spec?.namespace as string | undefined) ?? '';
  if (!namespace) throw badRequest('no namespace on request');
  const { rules, incomplete, errors } = deps.rules.rulesFor(req.user!, namespace);
  const resourceRules: PolicyRule[] = [];
  const nonResourceRules: PolicyRule[] = [];
  for (const r of rules) {
    if (r.resources?.length) {
      const rr: PolicyRule = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources };
      if (r.resourceNames?.length) rr.resourceNames = r.resourceNames;
      resourceRules.push(rr);
    }
    if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
  }
  const status: Record<string, unknown> = { resourceRules, nonResourceRules, incomplete };
  if (errors.length) status.evaluationError = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
  return send(req, reply, group, 'selfsubjectrulesreviews', {
    apiVersion: `${group}/v1`, kind: 'SelfSubjectRulesReview', metadata: { ...obj.metadata, creationTimestamp: null }, spec: obj.spec ?? {}, status,
  });
}

async function selfSubjectReview(deps: ReviewDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const group = 'authentication.k8s.io';
  const obj = typedBody(deps.decoder, req, group, 'SelfSubjectReview');
  const u = req.user!;
  const userInfo: Record<string, unknown> = { username: u.name };
  if (u.uid) userInfo.uid = u.uid;
  if (u.groups.length) userInfo.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) userInfo.extra = u.extra;
  return send(req, reply, group, 'selfsubjectreviews', {
    apiVersion: `${group}/v1`, kind: 'SelfSubjectReview', metadata: { ...obj.metadata, creationTimestamp: null }, status: { userInfo },
  });
}
