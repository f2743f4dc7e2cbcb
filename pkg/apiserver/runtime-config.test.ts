import { describe, expect, it } from 'vitest';
import type { GroupVersion } from '../../api/types.js';
import { parseRuntimeConfig, servedGroupVersions } from './runtime-config.js';

const gv = (group: string, version: string, ...plurals: string[]): GroupVersion =>
  ({ group, version, definitions: {}, resources: plurals.map((plural) => ({ group, version, plural })) }) as unknown as GroupVersion;
const ALL = [gv('', 'v1', 'pods'), gv('apps', 'v1', 'deployments', 'daemonsets'), gv('batch', 'v1', 'jobs'), gv('policy', 'v1', 'poddisruptionbudgets'), gv('policy', 'v1beta1', 'podsecuritypolicies'), gv('admissionregistration.k8s.io', 'v1alpha1', 'initializerconfigurations')];
const served = (flag: string[], psp = false) => servedGroupVersions(ALL, parseRuntimeConfig(flag), psp)
  .map((g) => `${g.group}/${g.version}:${g.resources.map((r) => r.plural).join(',')}`);

describe('--runtime-config', () => {
  it('serves all but policy/v1beta1 by default, which its admission plugin or the flag turn on', () => {
    expect(served([])).not.toContain('policy/v1beta1:podsecuritypolicies');
    expect(served([], true)).toContain('policy/v1beta1:podsecuritypolicies');
    expect(served(['policy/v1beta1'])).toContain('policy/v1beta1:podsecuritypolicies');
    expect(served(['api/beta=true'])).toContain('policy/v1beta1:podsecuritypolicies');
  });

  it('applies api/all, ga, beta, alpha first, then group versions and resources', () => {
    expect(served(['api/all=false', 'batch/v1=true'])).toEqual(['batch/v1:jobs']);
    expect(served(['apps/v1/daemonsets=false', 'api/alpha=false'])).toEqual(['/v1:pods', 'apps/v1:deployments', 'batch/v1:jobs', 'policy/v1:poddisruptionbudgets']);
    expect(served(['api/ga=false', 'policy/v1beta1/podsecuritypolicies=true'])).toEqual(['policy/v1beta1:podsecuritypolicies', 'admissionregistration.k8s.io/v1alpha1:initializerconfigurations']);
  });

  it('refuses what kube-apiserver refuses, with its messages', () => {
    expect(() => served(['api/all=false'])).toThrow('invalid key with only api/all=false');
    expect(() => served(['appsv1=false'])).toThrow('runtime-config invalid key appsv1');
    expect(() => served(['widgets.example.com/v1=true', 'acme/v2'])).toThrow('unknown api groups acme,widgets.example.com');
    expect(() => served(['apps/v2=true'])).toThrow('group version apps/v2 that has not been registered');
    expect(() => served(['batch/v1=maybe'])).toThrow('invalid value of batch/v1: maybe');
    expect(() => served(['policy/v1beta1=false'], true)).toThrow('the PodSecurityPolicy admission plugin needs policy/v1beta1');
  });
});
