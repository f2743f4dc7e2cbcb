// Ingresses: upstream's ValidateIngressSpec (pkg/apis/networking/validation): a default backend or rules; rule hosts
// DNS subdomains (or `*.` wildcards), never IP addresses; HTTP paths with a pathType, absolute for Exact and Prefix
// and free of `//`, `/./` and the like; backends with exactly one of a service (a DNS-1035 name and a port name or
// number) or a resource; TLS hosts and secret names; ingressClassName. On create the kubernetes.io/ingress.class
// annotation must agree with ingressClassName; an update may keep invalid TLS secret names and rules under wildcard
// hosts that the stored object already has.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { isDNS1035Label, isDNS1123Subdomain, isWildcardDNS1123Subdomain, nameIsDNSSubdomain, nameIsPathSegment } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { goQuote, invalidRendered } from '../validation/go-values.js';
import { isIPSloppy } from '../validation/ip.js';
import { isValidPortName, isValidPortNum } from '../validation/network.js';
import { asObj } from '../validation/field-checks.js';

type Obj = Record<string, any>;

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const ANNOTATION_INGRESS_CLASS = 'kubernetes.io/ingress.class';
const SUPPORTED_PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

interface Options {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
}

const each = (causes: StatusCause[], path: string, value: unknown, msgs: string[]): void => {
  for (const m of msgs) causes.push(invalidValue(path, value, m));
};

function validateTypedLocalObjectReference(ref: Obj, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (ref.apiGroup !== undefined && ref.apiGroup !== null) each(causes, `${path}.apiGroup`, str(ref.apiGroup), isDNS1123Subdomain(str(ref.apiGroup)));
  for (const key of ['kind', 'name']) {
    const v = str(ref[key]);
    if (v === '') causes.push(required(`${path}.${key}`));
    else each(causes, `${path}.${key}`, v, nameIsPathSegment(v, false));
  }
  return causes;
}

function validateBackend(backend: Obj, path: string): StatusCause[] {
  const resource = asObj(backend.resource);
  const service = asObj(backend.service);
  if (resource && service) return [invalidValue(path, '', 'cannot set both resource and service backends')];
  if (resource) return validateTypedLocalObjectReference(resource, `${path}.resource`);
  if (!service) return [invalidValue(path, '', 'resource or service backend is required')];
  const causes: StatusCause[] = [];
  const name = str(service.name);
  if (name === '') causes.push(required(`${path}.service.name`));
  else each(causes, `${path}.service.name`, name, isDNS1035Label(name));
  const port = asObj(service.port) ?? {};
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) causes.push(invalidValue(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') each(causes, `${path}.service.port.name`, portName, isValidPortName(portName));
  else if (portNumber !== 0) each(causes, `${path}.service.port.number`, portNumber, isValidPortNum(portNumber));
  else causes.push(required(path, 'port name or number is required'));
  return causes;
}

function validatePath(p: Obj, path: string): StatusCause[] {
  const pathType = p.pathType;
  if (pathType === undefined || pathType === null) return [required(`${path}.pathType`, 'pathType must be specified')];
  const causes: StatusCause[] = [];
  const value = str(p.path);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) causes.push(invalidValue(`${path}.path`, value, 'must be an absolute path'));
    for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) causes.push(invalidValue(`${path}.path`, value, `must not contain '${seq}'`));
    for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) causes.push(invalidValue(`${path}.path`, value, `cannot end with '${suffix}'`));
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) causes.push(invalidValue(`${path}.path`, value, 'must be an absolute path'));
  } else {
    causes.push(notSupported(`${path}.pathType`, pathType, SUPPORTED_PATH_TYPES));
  }
  causes.push(...validateBackend(asObj(p.backend) ?? {}, `${path}.backend`));
  return causes;
}

function validateRuleValue(rule: Obj, path: string): StatusCause[] {
  const http = asObj(rule.http);
  if (!http) return [];
  const paths = arr(http.paths);
  const causes: StatusCause[] = [];
  if (paths.length === 0) causes.push(required(`${path}.http.paths`));
  paths.forEach((p, i) => causes.push(...validatePath(asObj(p) ?? {}, `${path}.http.paths[${i}]`)));
  return causes;
}

function validateRules(rules: unknown[], opts: Options): StatusCause[] {
  const causes: StatusCause[] = [];
  rules.forEach((r, i) => {
    const rule = asObj(r) ?? {};
    const path = `spec.rules[${i}]`;
    const host = str(rule.host);
    let wildcard = false;
    if (host !== '') {
      if (isIPSloppy(host)) causes.push(invalidValue(`${path}.host`, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        each(causes, `${path}.host`, host, isWildcardDNS1123Subdomain(host));
        wildcard = true;
      } else {
        each(causes, `${path}.host`, host, isDNS1123Subdomain(host));
      }
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) causes.push(...validateRuleValue(rule, path));
  });
  return causes;
}

const tlsSecretNameErrors = (name: string): string[] => (name === '' ? [] : nameIsDNSSubdomain(name, false));

function validateTLS(tls: unknown[], opts: Options): StatusCause[] {
  const causes: StatusCause[] = [];
  tls.forEach((t, i) => {
    const entry = asObj(t) ?? {};
    arr(entry.hosts).forEach((h, j) => {
      const host = str(h);
      each(causes, `spec.tls[${i}].hosts[${j}]`, host, host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host));
    });
    if (!opts.allowInvalidSecretName) each(causes, `spec.tls[${i}].secretName`, str(entry.secretName), tlsSecretNameErrors(str(entry.secretName)));
  });
  return causes;
}

export function validateIngressSpec(obj: KubeObject, opts: Options = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false }): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const causes: StatusCause[] = [];
  const rules = arr(spec.rules);
  const defaultBackend = asObj(spec.defaultBackend);
  if (rules.length === 0 && !defaultBackend) {
    causes.push(invalidRendered('spec', Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)',
      'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend) causes.push(...validateBackend(defaultBackend, 'spec.defaultBackend'));
  if (rules.length > 0) causes.push(...validateRules(rules, opts));
  const tls = arr(spec.tls);
  if (tls.length > 0) causes.push(...validateTLS(tls, opts));
  if (typeof spec.ingressClassName === 'string') each(causes, 'spec.ingressClassName', spec.ingressClassName, nameIsDNSSubdomain(spec.ingressClassName, false));
  return causes;
}

export function validateIngressCreate(obj: KubeObject): StatusCause[] {
  const causes = validateIngressSpec(obj);
  const annotations = asObj(obj.metadata?.annotations) ?? {};
  const className = obj.spec?.ingressClassName;
  if (Object.hasOwn(annotations, ANNOTATION_INGRESS_CLASS) && typeof className === 'string' && annotations[ANNOTATION_INGRESS_CLASS] !== className) {
    causes.push(invalidValue(`annotations.${ANNOTATION_INGRESS_CLASS}`, str(annotations[ANNOTATION_INGRESS_CLASS]), 'must match `ingressClassName` when both are specified'));
  }
  return causes;
}

export function validateIngressUpdate(obj: KubeObject, old: KubeObject): StatusCause[] {
  const oldSpec = asObj(old.spec) ?? {};
  const opts: Options = {
    allowInvalidSecretName: arr(oldSpec.tls).some((t) => tlsSecretNameErrors(str(asObj(t)?.secretName)).length > 0),
    allowInvalidWildcardHostRule: arr(oldSpec.rules).some((r) => {
      const rule = asObj(r) ?? {};
      return str(rule.host).includes('*') && validateRuleValue(rule, '').length > 0;
    }),
  };
  return validateIngressSpec(obj, opts);
}

export const ingressStrategy: Strategy = {
  validate: validateIngressCreate,
  validateUpdate: validateIngressUpdate,
  updateValidationIsComplete: true,
  // upstream warns of the annotation on a create only
  warningsOnCreate: (obj) => (obj.metadata?.annotations?.[ANNOTATION_INGRESS_CLASS] !== undefined && (obj.spec as Record<string, unknown> | undefined)?.ingressClassName == null
    ? [`annotation ${goQuote(ANNOTATION_INGRESS_CLASS)} is deprecated, please use 'spec.ingressClassName' instead`]
    : []),
};
