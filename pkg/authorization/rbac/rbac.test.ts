import { describe, expect, it } from 'vitest';
import type { Attributes } from '../interface.js';
import { parsePolicyLine, policyMatches } from '../abac.js';
import { fieldSelectorValue, podReferences } from '../node.js';
import { aggregatedRules } from './aggregation.js';
import { covers } from './covers.js';
import { reconcileRole } from './reconcile.js';
import { compactString, ruleAllows } from './rules.js';

const attrs = (over: Partial<Attributes>): Attributes => ({
  user: { name: 'u', groups: ['system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns',
  apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '', ...over,
});

describe('RBAC rule matching', () => {
  it('matches verbs, groups, resources, subresources, names and URLs as upstream', () => {
    const r = { verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/log'] };
    expect(ruleAllows(attrs({}), r)).toBe(true);
    expect(ruleAllows(attrs({ subresource: 'log', name: 'p' }), r)).toBe(true);
    expect(ruleAllows(attrs({ subresource: 'exec' }), r)).toBe(false);
    expect(ruleAllows(attrs({ verb: 'list' }), r)).toBe(false);
    expect(ruleAllows(attrs({ apiGroup: 'apps' }), r)).toBe(false);
    expect(ruleAllows(attrs({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }), { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] })).toBe(true);
    expect(ruleAllows(attrs({ resource: 'deployments' }), { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] })).toBe(false);
    expect(ruleAllows(attrs({ name: 'a' }), { ...r, resourceNames: ['a'] })).toBe(true);
    expect(ruleAllows(attrs({ name: 'b' }), { ...r, resourceNames: ['a'] })).toBe(false);
    expect(ruleAllows(attrs({ verb: 'list' }), { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] })).toBe(false);
    const url = { verbs: ['get'], nonResourceURLs: ['/apis/*', '/version'] };
    expect(ruleAllows(attrs({ isResourceRequest: false, path: '/apis/apps' }), url)).toBe(true);
    expect(ruleAllows(attrs({ isResourceRequest: false, path: '/version' }), url)).toBe(true);
    expect(ruleAllows(attrs({ isResourceRequest: false, path: '/versions' }), url)).toBe(false);
  });

  it('covers rules the way escalation checks need, and prints what is missing compactly', () => {
    const owner = [{ verbs: ['*'], apiGroups: [''], resources: ['pods', '*/status'] }];
    expect(covers(owner, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'services/status'] }]).covered).toBe(true);
    const { covered, missing } = covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]);
    expect(covered).toBe(false);
    expect(missing.map(compactString)).toEqual(['{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}']);
    expect(covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]).covered).toBe(false);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/api/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api/v1'] }]).covered).toBe(true);
  });

  it('aggregates by label selector and reconciles without dropping what users added', () => {
    const a = { metadata: { name: 'a', labels: { x: 'true' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    const b = { metadata: { name: 'b', labels: { x: 'true' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }] };
    const agg = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'true' } }] } };
    expect(aggregatedRules(agg, [a, b, agg])).toEqual([a.rules[0], b.rules[1]]);
    expect(aggregatedRules(a, [a])).toBeUndefined();
    const stored = { metadata: { name: 'r', annotations: {} }, rules: [{ verbs: ['get'], apiGroups: ['x'], resources: ['y'] }] };
    const desired = { metadata: { name: 'r', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    expect(reconcileRole(stored, desired)?.rules).toEqual([...stored.rules, ...desired.rules]);
    expect(reconcileRole({ ...stored, metadata: { name: 'r', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } } }, desired)).toBeUndefined();
  });
});

describe('ABAC policies', () => {
  it('parses v1beta1 and v0 lines with upstream\'s conversions, and matches', () => {
    const p = parsePolicyLine('{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*","nonResourcePath":"*","readonly":true}}');
    expect(p.group).toBe('system:authenticated');
    expect(policyMatches(p, attrs({ isResourceRequest: false, path: '/api' }))).toBe(true);
    expect(policyMatches(p, attrs({ isResourceRequest: false, path: '/api', user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } }))).toBe(false);
    expect(policyMatches(p, attrs({ isResourceRequest: false, verb: 'post', path: '/api' }))).toBe(false);
    const v0 = parsePolicyLine('{"user":"bob","readonly":true}');
    expect(v0).toMatchObject({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' });
    expect(() => parsePolicyLine('{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"usr":"x"}}')).toThrow(/unknown field "spec.usr"/);
  });
});

describe('Node authorizer helpers', () => {
  it('finds what a pod references and reads field selectors', () => {
    const pod = {
      metadata: { name: 'p' },
      spec: {
        serviceAccountName: 'sa', imagePullSecrets: [{ name: 'pull' }],
        containers: [{ envFrom: [{ secretRef: { name: 'env-s' }, configMapRef: { name: 'env-c' } }] }],
        volumes: [{ name: 'v', projected: { sources: [{ secret: { name: 'proj' } }] } }, { name: 'e', ephemeral: {} }, { name: 'c', persistentVolumeClaim: { claimName: 'claim' } }],
      },
    };
    expect(podReferences(pod, 'secrets').sort()).toEqual(['env-s', 'proj', 'pull']);
    expect(podReferences(pod, 'configmaps')).toEqual(['env-c']);
    expect(podReferences(pod, 'persistentvolumeclaims')).toEqual(['p-e', 'claim']);
    expect(podReferences(pod, 'serviceaccounts')).toEqual(['sa']);
    expect(fieldSelectorValue('spec.nodeName=n1,status.phase!=Failed', 'spec.nodeName')).toBe('n1');
    expect(fieldSelectorValue('spec.nodeName!=n1', 'spec.nodeName')).toBeUndefined();
  });
});
