// IngressClasses (upstream: ValidateIngressClass in pkg/apis/networking/validation): the controller is a
// domain-prefixed path of at most 250 bytes that never changes; the parameters reference names a kind and a name
// (path segments), an optional API group (a DNS subdomain) and its scope: Namespace, with the namespace, or Cluster,
// without one.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsPathSegment } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { asObj, domainPrefixedPath } from '../validation/field-checks.js';

const MAX_CONTROLLER_BYTES = 250;
/** sets.List order. */
const SCOPES = ['Cluster', 'Namespace'];

function validateParameters(p: KubeObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (typeof p.apiGroup === 'string') for (const m of isDNS1123Subdomain(p.apiGroup)) causes.push(invalidValue(`${path}.apiGroup`, p.apiGroup, m));
  for (const field of ['kind', 'name'] as const) {
    const value = typeof p[field] === 'string' ? p[field] as string : '';
    if (value === '') causes.push(required(`${path}.${field}`, `${field} is required`));
    else for (const m of nameIsPathSegment(value, false)) causes.push(invalidValue(`${path}.${field}`, value, m));
  }
  if (typeof p.scope !== 'string') return [...causes, required(`${path}.scope`)];
  if (!SCOPES.includes(p.scope)) return [...causes, notSupported(`${path}.scope`, p.scope, SCOPES)];
  const namespace = p.namespace;
  if (p.scope === 'Namespace') {
    if (typeof namespace !== 'string') causes.push(required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else for (const m of isDNS1123Label(namespace)) causes.push(invalidValue(`${path}.namespace`, namespace, m));
  } else if (namespace != null) {
    causes.push(forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return causes;
}

export function validateIngressClass(ic: KubeObject): StatusCause[] {
  const spec = asObj(ic.spec) ?? {};
  const controller = typeof spec.controller === 'string' ? spec.controller : '';
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(controller) > MAX_CONTROLLER_BYTES) causes.push(tooLong('spec.controller', MAX_CONTROLLER_BYTES));
  causes.push(...domainPrefixedPath('spec.controller', controller));
  const parameters = asObj(spec.parameters);
  if (parameters) causes.push(...validateParameters(parameters, 'spec.parameters'));
  return causes;
}

export const ingressClassStrategy: Strategy = {
  validate: validateIngressClass,
  validateUpdate(ic, old) {
    const controller = ic.spec?.controller ?? '';
    return controller === (old.spec?.controller ?? '') ? [] : [invalidValue('spec.controller', controller, 'field is immutable')];
  },
};
