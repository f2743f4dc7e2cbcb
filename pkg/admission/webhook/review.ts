// The AdmissionRequest of admission.k8s.io/v1 for a request's attributes: what webhooks receive in an
// AdmissionReview and what policies see as `request`.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/types.js';
import type { AdmissionAttributes } from '../interface.js';
import { requestName } from './rules.js';

const OPTIONS_KIND: Record<string, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

/** The kind the request speaks: the resource's, or its subresource's (Scale for deployments/scale). */
export function requestKind(a: AdmissionAttributes): { group: string; version: string; kind: string } {
  const sub = a.subresource ? a.resource.subresources?.find((s) => s.name === a.subresource) : undefined;
  if (sub) return { group: sub.group, version: sub.version, kind: sub.kind };
  return { group: a.resource.group, version: a.resource.version, kind: a.resource.kind };
}

const resourceOf = (a: AdmissionAttributes): Record<string, string> => ({ group: a.resource.group, version: a.resource.version, resource: a.resource.plural });

/**
 * The request `a` as sent; `asked`: as the client made it, when `a` is its conversion to an equivalent resource
 * (kind and resource name the converted, requestKind and requestResource the asked).
 */
export function admissionRequest(a: AdmissionAttributes, uid: string = randomUUID(), asked: AdmissionAttributes = a): Record<string, unknown> {
  const kind = requestKind(a);
  const resource = resourceOf(a);
  const user = a.user;
  const req: Record<string, unknown> = {
    uid,
    kind,
    resource,
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: asked === a ? kind : requestKind(asked),
    requestResource: asked === a ? resource : resourceOf(asked),
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    name: requestName(a),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: user ? { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) } : {},
    object: a.operation === 'DELETE' ? null : objectOf(a.object),
    oldObject: objectOf(a.oldObject),
    dryRun: a.dryRun,
  };
  const optionsKind = OPTIONS_KIND[a.operation];
  // CONNECT has no options object: upstream's empty RawExtension marshals as null, as object and oldObject do
  req.options = optionsKind ? { apiVersion: 'meta.k8s.io/v1', kind: optionsKind, ...(a.options ?? (a.dryRun ? { dryRun: ['All'] } : {})) } : null;
  return req;
}

const objectOf = (o: KubeObject | undefined): KubeObject | null => o ?? null;
