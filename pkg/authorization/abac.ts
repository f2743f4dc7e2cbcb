// ABAC (--authorization-policy-file): one JSON policy per line, upstream's format
// (abac.authorization.kubernetes.io/v1beta1 Policy, or the legacy v0 object without apiVersion).
import { readFileSync } from 'node:fs';
import type { Attributes, Authorizer } from './interface.js';

export interface AbacSpec {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

const API_VERSION = 'abac.authorization.kubernetes.io/v1beta1';
const SPEC_FIELDS = new Set(['user', 'group', 'readonly', 'apiGroup', 'resource', 'namespace', 'nonResourcePath']);
const V0_FIELDS = new Set(['user', 'group', 'readonly', 'resource', 'namespace']);

function str(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${field} must be a string`);
  return v;
}

/** One line to a policy, with the conversions upstream applies (`*` user or group means every authenticated user). */
export function parsePolicyLine(line: string): AbacSpec {
  const raw = JSON.parse(line) as Record<string, unknown>;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('a policy must be a JSON object');
  if (raw.apiVersion === undefined) {
    for (const k of Object.keys(raw)) if (!V0_FIELDS.has(k)) throw new Error(`unknown field "${k}"`);
    const user = str(raw.user, 'user');
    const group = str(raw.group, 'group');
    const namespace = str(raw.namespace, 'namespace');
    const resource = str(raw.resource, 'resource');
    const s: AbacSpec = { user, group, readonly: raw.readonly === true, apiGroup: '*', resource: resource || '*', namespace: namespace || '*', nonResourcePath: '' };
    if (!user && !group) s.group = 'system:authenticated';
    if (user === '*' || group === '*') {
      s.group = 'system:authenticated';
      s.user = '';
    }
    if (!namespace && !resource) s.nonResourcePath = '*';
    return s;
  }
  if (raw.apiVersion !== API_VERSION) throw new Error(`unknown apiVersion ${JSON.stringify(raw.apiVersion)} (want ${API_VERSION})`);
  if (raw.kind !== 'Policy') throw new Error(`unknown kind ${JSON.stringify(raw.kind)} (want Policy)`);
  const spec = (raw.spec ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(spec)) if (!SPEC_FIELDS.has(k)) throw new Error(`unknown field "spec.${k}"`);
  if (spec.readonly !== undefined && typeof spec.readonly !== 'boolean') throw new Error('spec.readonly must be a boolean');
  const s: AbacSpec = {
    user: str(spec.user, 'spec.user'), group: str(spec.group, 'spec.group'), readonly: spec.readonly === true,
    apiGroup: str(spec.apiGroup, 'spec.apiGroup'), resource: str(spec.resource, 'spec.resource'),
    namespace: str(spec.namespace, 'spec.namespace'), nonResourcePath: str(spec.nonResourcePath, 'spec.nonResourcePath'),
  };
  if (s.user === '*' || s.group === '*') {
    s.group = 'system:authenticated';
    s.user = '';
  }
  return s;
}

export function parsePolicyFile(text: string, path = 'policy file'): AbacSpec[] {
  const out: AbacSpec[] = [];
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith('#')) return;
    try {
      out.push(parsePolicyLine(t));
    } catch (e) {
      throw new Error(`${path}:${i + 1}: ${(e as Error).message}`);
    }
  });
  return out;
}

function subjectMatches(p: AbacSpec, a: Attributes): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user === a.user.name) matched = true;
    else return false;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (a.user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

const READONLY = new Set(['get', 'list', 'watch']);

export function policyMatches(p: AbacSpec, a: Attributes): boolean {
  if (!subjectMatches(p, a)) return false;
  if (!READONLY.has(a.verb) && p.readonly) return false;
  if (a.isResourceRequest) {
    return (p.namespace === '*' || p.namespace === a.namespace)
      && (p.resource === '*' || p.resource === a.resource)
      && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
  }
  const np = p.nonResourcePath;
  return np === '*' || (np !== '' && np === a.path) || (np.endsWith('*') && a.path.startsWith(np.replace(/\*+$/, '')));
}

export function abacAuthorizer(policies: AbacSpec[]): Authorizer {
  return {
    name: 'ABAC',
    authorize: (a) => (policies.some((p) => policyMatches(p, a)) ? { decision: 'allow', reason: '' } : { decision: 'noopinion', reason: 'No policy matched.' }),
  };
}

export const abacAuthorizerFromFile = (path: string): Authorizer => abacAuthorizer(parsePolicyFile(readFileSync(path, 'utf8'), path));
