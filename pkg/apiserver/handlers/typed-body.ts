// The body of a request for an object that is not stored (a review, a TokenRequest): decoded as its kind, whose
// kind and apiVersion, when the body says them, must be that kind's. An empty one is unset, as for upstream's decoder.
import type { FastifyRequest } from 'fastify';
import type { KubeObject } from '../../../api/types.js';
import { badRequest } from '../../apimachinery/errors.js';
import { decodeAs, type Decoder } from '../../registry/generic/decode.js';
import { decodeBody } from '../negotiation.js';

/** `group` is a v1 API group of k8s.io/api ("authorization.k8s.io": io.k8s.api.authorization.v1.<kind>). */
export function typedBody(decoder: Decoder, req: FastifyRequest, group: string, kind: string): KubeObject {
  const obj = decodeAs(decoder, decodeBody(req.body as Buffer | undefined, req.headers['content-type']), `io.k8s.api.${group.split('.')[0]}.v1.${kind}`, kind, 'v1');
  if (obj.kind && obj.kind !== kind) throw badRequest(`the kind of the body (${obj.kind}) is not ${kind}`);
  if (obj.apiVersion && obj.apiVersion !== `${group}/v1`) throw badRequest(`the apiVersion of the body (${obj.apiVersion}) is not ${group}/v1`);
  return obj;
}
