import { describe, expect, it } from 'vitest';
import { evaluatePolicy, parsePolicy, type AuditAttributes } from './audit-policy.js';

const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
- level: None
  users: [system:kube-proxy]
  verbs: [watch]
- level: RequestResponse
  resources: [{group: "", resources: ["pods/log"]}]
  omitManagedFields: false
- level: Request
  resources: [{group: "", resources: ["*/status"]}]
  omitStages: [ResponseStarted]
- level: Metadata
  resources: [{group: apps, resources: ["deployments/*"]}]
- level: Request
  resources: [{group: "", resources: [configmaps], resourceNames: [controller-leader]}]
  namespaces: [kube-system]
- level: Metadata
  userGroups: [ops]
  nonResourceURLs: ["/healthz*", /version]
- level: None
  nonResourceURLs: ["*"]
- level: Metadata
  namespaces: [""]
`);

const attrs = (over: Partial<AuditAttributes>): AuditAttributes => ({
  user: { name: 'u', groups: ['system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '/', namespace: 'default',
  apiGroup: '', resource: 'pods', subresource: '', name: 'x', ...over,
});
const level = (over: Partial<AuditAttributes>): string => evaluatePolicy(policy, attrs(over)).level;

describe('audit policy', () => {
  it('matches rules in order by user, group, verb, resource, subresource, name, namespace and URL', () => {
    expect(level({ user: { name: 'system:kube-proxy', groups: [] }, verb: 'watch', resource: 'pods/log' })).toBe('None');
    expect(level({ subresource: 'log' })).toBe('RequestResponse');
    expect(level({ resource: 'nodes', subresource: 'status', namespace: '' })).toBe('Request');
    expect(level({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })).toBe('Metadata');
    // "deployments/*" is about subresources and the resource alike, as upstream's checker has it.
    expect(level({ apiGroup: 'apps', resource: 'deployments' })).toBe('Metadata');
    expect(level({ resource: 'configmaps', namespace: 'kube-system', name: 'controller-leader' })).toBe('Request');
    expect(level({ resource: 'configmaps', namespace: 'kube-system', name: 'other' })).toBe('None');
    expect(level({ isResourceRequest: false, path: '/healthz/ping', user: { name: 'a', groups: ['ops'] } })).toBe('Metadata');
    expect(level({ isResourceRequest: false, path: '/version', user: { name: 'a', groups: ['ops'] } })).toBe('Metadata');
    expect(level({ isResourceRequest: false, path: '/versions', user: { name: 'a', groups: ['ops'] } })).toBe('None');
    expect(level({ isResourceRequest: false, path: '/healthz' })).toBe('None');
    expect(level({ resource: 'namespaces', namespace: '' })).toBe('Metadata');
    expect(level({ resource: 'pods' })).toBe('None');
  });

  it('adds the rule\'s omitted stages to the policy\'s; the rule\'s omitManagedFields wins', () => {
    expect([...evaluatePolicy(policy, attrs({ resource: 'pods', subresource: 'status' })).omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(evaluatePolicy(policy, attrs({ subresource: 'log' })).omitManagedFields).toBe(false);
    expect(evaluatePolicy(policy, attrs({ resource: 'pods', subresource: 'status' })).omitManagedFields).toBe(true);
  });

  it('refuses what upstream\'s validation refuses', () => {
    const bad = (rules: string): (() => unknown) => () => parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${rules}`);
    expect(bad('- level: Verbose')).toThrow('rules[0].level: Unsupported value: "Verbose"');
    expect(bad('- level: None\n  omitStages: [Done]')).toThrow('rules[0].omitStages: Unsupported value: "Done"');
    expect(bad('- level: None\n  nonResourceURLs: [healthz]')).toThrow('must begin with a \'/\' character');
    expect(bad('- level: None\n  nonResourceURLs: ["/a*b"]')).toThrow('must be the final character');
    expect(bad('- level: None\n  nonResourceURLs: ["/a"]\n  namespaces: [x]')).toThrow('cannot apply to both');
    expect(bad('- level: None\n  resources: [{resources: ["*"], resourceNames: [a]}]')).toThrow('requires the resources to be specific');
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]')).toThrow('is not audit.k8s.io/v1');
  });
});
