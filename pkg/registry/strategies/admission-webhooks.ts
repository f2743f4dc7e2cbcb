// Mutating/ValidatingWebhookConfiguration checks beyond the schema, worded as upstream's
// pkg/apis/admissionregistration/validation: webhook names fully qualified and unique, v1's sideEffects and
// admissionReviewVersions, exactly one of url and service, https URLs, rules, timeouts, matchConditions.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import type { Scope } from '../../apimachinery/cel/index.js';
import { celCompileErrors, matchConditionScope } from './admission-cel.js';

type Obj = Record<string, any>;

const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const SIDE_EFFECTS_V1 = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

/** upstream's IsFullyQualifiedName. */
export function fullyQualifiedName(path: string, name: unknown): StatusCause[] {
  if (typeof name !== 'string' || name === '') return [required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length) return [invalidValue(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalidValue(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** "*" alone or not at all (upstream's hasWildcard checks of apiGroups and apiVersions). */
function noWildcardWithOthers(causes: StatusCause[], path: string, values: string[] | undefined, what: string): void {
  if (!values?.length) {
    causes.push(required(path));
    return;
  }
  if (values.includes('*') && values.length > 1) causes.push(invalidValue(path, values, `if '*' is present, must not specify other ${what}`));
}

/** One rule with operations (upstream: validateRuleWithOperations, validateRule, validateResources). */
export function validateRule(rule: Obj, path: string, withOperations: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  if (withOperations) {
    const ops = rule.operations as string[] | undefined;
    if (!ops?.length) causes.push(required(`${path}.operations`));
    else if (ops.includes('*') && ops.length > 1) causes.push(invalidValue(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
    ops?.forEach((op, i) => { if (!OPERATIONS.includes(op)) causes.push(notSupported(`${path}.operations[${i}]`, op, OPERATIONS)); });
  }
  noWildcardWithOthers(causes, `${path}.apiGroups`, rule.apiGroups, 'API groups');
  noWildcardWithOthers(causes, `${path}.apiVersions`, rule.apiVersions, 'API versions');
  (rule.apiVersions as string[] | undefined)?.forEach((v, i) => { if (v === '') causes.push(required(`${path}.apiVersions[${i}]`)); });
  const resources = rule.resources as string[] | undefined;
  if (!resources?.length) {
    causes.push(required(`${path}.resources`));
    return causes;
  }
  const subsOf = new Map<string, Set<string>>();
  resources.forEach((r, i) => {
    const at = `${path}.resources[${i}]`;
    if (r === '') {
      causes.push(required(at));
      return;
    }
    const [res = '', sub, ...rest] = r.split('/');
    if (rest.length) causes.push(invalidValue(at, r, 'resource name must not contain more than one \'/\''));
    const subs = subsOf.get(res) ?? new Set<string>();
    subs.add(sub ?? '');
    subsOf.set(res, subs);
  });
  if (resources.includes('*/*') && resources.length > 1) causes.push(invalidValue(`${path}.resources`, resources, "if '*/*' is present, must not specify other resources"));
  else if (subsOf.get('*')?.has('') && [...subsOf.entries()].some(([res, subs]) => res !== '*' && subs.has(''))) {
    causes.push(invalidValue(`${path}.resources`, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  resources.forEach((r, i) => {
    const [res = '', sub] = r.split('/');
    if (sub === '*' && [...(subsOf.get(res) ?? [])].some((s) => s !== '*' && s !== '')) {
      causes.push(invalidValue(`${path}.resources[${i}]`, r, `if '${res}/*' is present, must not specify ${res}/subresource`));
    }
    if (res === '*' && sub && sub !== '*' && [...subsOf.entries()].some(([other, subs]) => other !== '*' && subs.has(sub))) {
      causes.push(invalidValue(`${path}.resources[${i}]`, r, `if '*/${sub}' is present, must not specify ${[...subsOf.keys()].find((o) => o !== '*' && subsOf.get(o)!.has(sub))}/${sub}`));
    }
  });
  const scopes = ['*', 'Cluster', 'Namespaced'];
  if (rule.scope !== undefined && !scopes.includes(rule.scope)) causes.push(notSupported(`${path}.scope`, rule.scope, scopes));
  return causes;
}

/** The webhook's clientConfig (upstream: ValidateWebhookURL, ValidateWebhookService). */
export function validateClientConfig(cc: Obj | undefined, path: string): StatusCause[] {
  const hasUrl = typeof cc?.url === 'string';
  const hasService = cc?.service !== undefined && cc?.service !== null;
  if (hasUrl === hasService) return [required(path, 'exactly one of url or service is required')];
  if (hasUrl) {
    const at = `${path}.url`;
    const form = '; desired format: https://host[/path]';
    const u = goUrlParts(cc!.url as string);
    if (typeof u === 'string') return [required(at, `url must be a valid URL: ${u}${form}`)];
    // each problem with the offending part as the value, as upstream's ValidateWebhookURL
    const causes: StatusCause[] = [];
    if (u.scheme !== 'https') causes.push(invalidValue(at, u.scheme, `'https' is the only allowed URL scheme${form}`));
    if (!u.host) causes.push(invalidValue(at, u.host, `host must be provided${form}`));
    if (u.user !== undefined) causes.push(invalidValue(at, u.user, 'user information is not permitted in the URL'));
    if (u.fragment) causes.push(invalidValue(at, u.fragment, 'fragments are not permitted in the URL'));
    if (u.rawQuery) causes.push(invalidValue(at, u.rawQuery, 'query parameters are not permitted in the URL'));
    return causes;
  }
  const svc = cc!.service as Obj;
  const at = `${path}.service`;
  const causes: StatusCause[] = [];
  if (!svc.name) causes.push(required(`${at}.name`, 'service name is required'));
  if (!svc.namespace) causes.push(required(`${at}.namespace`, 'service namespace is required'));
  const port = svc.port ?? 443;
  if (port < 1 || port > 65535) causes.push(invalidValue(`${at}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  causes.push(...servicePathErrors(`${at}.path`, svc.path));
  return causes;
}

/** A service's path: "/" or segments that are each a DNS-1123 subdomain (upstream's ValidateWebhookService). */
function servicePathErrors(at: string, path: unknown): StatusCause[] {
  if (typeof path !== 'string' || path === '' || path === '/') return [];
  if (path === '//') return [invalidValue(at, path, 'segment[0] may not be empty')];
  const causes: StatusCause[] = [];
  if (!path.startsWith('/')) causes.push(invalidValue(at, path, "must start with a '/'"));
  // the first character is dropped whatever it is, and one trailing slash
  const rest = path.slice(1);
  (rest.endsWith('/') ? rest.slice(0, -1) : rest).split('/').forEach((seg, i) => {
    if (!seg) causes.push(invalidValue(at, path, `segment[${i}] may not be empty`));
    else for (const failure of isDNS1123Subdomain(seg)) causes.push(invalidValue(at, path, `segment[${i}]: ${failure}`));
  });
  return causes;
}

/**
 * The parts of a URL as Go's url.Parse splits it (the scheme lowercased; the user information as Userinfo.String()
 * prints it, undefined when absent), or the parse error's text. Go accepts what WHATWG would not (a bare "host/path"
 * has no scheme and no host).
 */
function goUrlParts(raw: string): { scheme: string; host: string; user?: string; rawQuery: string; fragment: string } | string {
  const hash = raw.indexOf('#');
  const fragment = hash < 0 ? '' : safeDecode(raw.slice(hash + 1));
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  if (rest.startsWith(':')) return `parse ${JSON.stringify(raw)}: missing protocol scheme`;
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(rest)?.[0].slice(0, -1).toLowerCase() ?? '';
  if (scheme) rest = rest.slice(scheme.length + 1);
  const q = rest.indexOf('?');
  const rawQuery = q < 0 ? '' : rest.slice(q + 1);
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('//') || (!scheme && rest.startsWith('///'))) return { scheme, host: '', rawQuery, fragment };
  const authority = rest.slice(2).split('/')[0]!;
  const at = authority.lastIndexOf('@');
  return { scheme, host: at < 0 ? authority : authority.slice(at + 1), ...(at < 0 ? {} : { user: authority.slice(0, at) }), rawQuery, fragment };
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** matchConditions: names qualified and unique, expressions compiled (upstream: validateMatchConditions). */
export function validateMatchConditions(conditions: Obj[] | undefined, path: string, scope: Scope = matchConditionScope()): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!c.name) causes.push(required(`${at}.name`));
    else if (seen.has(c.name)) causes.push(duplicate(`${at}.name`, c.name));
    seen.add(c.name);
    if (!c.expression) causes.push(required(`${at}.expression`));
    else causes.push(...celCompileErrors(`${at}.expression`, c.expression, scope, ['bool']));
  });
  if ((conditions?.length ?? 0) > 64) causes.push(fieldTooMany(path, conditions!.length, 64));
  return causes;
}

const fieldTooMany = (path: string, n: number, max: number): StatusCause => ({ reason: 'FieldValueTooMany', field: path, message: `Too many: ${n}: must have at most ${max} items` });

function validateWebhook(hook: Obj, path: string, mutating: boolean): StatusCause[] {
  const causes: StatusCause[] = [...fullyQualifiedName(`${path}.name`, hook.name)];
  (hook.rules as Obj[] | undefined ?? []).forEach((r, i) => causes.push(...validateRule(r, `${path}.rules[${i}]`, true)));
  // a nil *SideEffectClass, written back as null (go-zero-values.ts)
  if (hook.sideEffects === undefined || hook.sideEffects === null) causes.push(required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECTS_V1.join(', ')}`));
  else if (!SIDE_EFFECTS_V1.includes(hook.sideEffects)) causes.push(notSupported(`${path}.sideEffects`, hook.sideEffects, SIDE_EFFECTS_V1));
  const versions = hook.admissionReviewVersions as string[] | undefined;
  if (!versions?.length) causes.push(required(`${path}.admissionReviewVersions`, `must specify one of ${REVIEW_VERSIONS.join(', ')}`));
  else {
    const seen = new Set<string>();
    versions.forEach((v, i) => {
      const errs = isDNS1035Label(v);
      if (errs.length) causes.push(invalidValue(`${path}.admissionReviewVersions[${i}]`, v, errs.join(',')));
      if (seen.has(v)) causes.push(duplicate(`${path}.admissionReviewVersions[${i}]`, v));
      seen.add(v);
    });
    if (!versions.some((v) => REVIEW_VERSIONS.includes(v))) {
      causes.push(invalidValue(`${path}.admissionReviewVersions`, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
    }
  }
  if (hook.timeoutSeconds !== undefined && (hook.timeoutSeconds < 1 || hook.timeoutSeconds > 30)) {
    causes.push(invalidValue(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const failure = ['Fail', 'Ignore'];
  if (hook.failurePolicy !== undefined && !failure.includes(hook.failurePolicy)) causes.push(notSupported(`${path}.failurePolicy`, hook.failurePolicy, failure));
  const match = ['Equivalent', 'Exact'];
  if (hook.matchPolicy !== undefined && !match.includes(hook.matchPolicy)) causes.push(notSupported(`${path}.matchPolicy`, hook.matchPolicy, match));
  const reinvocation = ['IfNeeded', 'Never'];
  if (mutating && hook.reinvocationPolicy !== undefined && !reinvocation.includes(hook.reinvocationPolicy)) {
    causes.push(notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, reinvocation));
  }
  causes.push(...validateClientConfig(hook.clientConfig, `${path}.clientConfig`));
  causes.push(...validateMatchConditions(hook.matchConditions, `${path}.matchConditions`));
  return causes;
}

function webhookConfigurationStrategy(mutating: boolean): Strategy {
  return {
    // Creates and updates alike (upstream relaxes uniqueness on updates of configurations stored before v1 only).
    validate(obj: KubeObject) {
      const causes: StatusCause[] = [];
      const seen = new Set<string>();
      ((obj.webhooks ?? []) as Obj[]).forEach((h, i) => {
        causes.push(...validateWebhook(h, `webhooks[${i}]`, mutating));
        if (typeof h.name === 'string' && h.name && seen.has(h.name)) causes.push(duplicate(`webhooks[${i}].name`, h.name));
        seen.add(h.name);
      });
      return causes;
    },
  };
}

export const mutatingWebhookConfigurationStrategy = webhookConfigurationStrategy(true);
export const validatingWebhookConfigurationStrategy = webhookConfigurationStrategy(false);
