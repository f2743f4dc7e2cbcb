import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { systemContext } from '../context.js';
import { podStrategy } from './pods.js';

const pod = (spec: KubeObject, metadata: NonNullable<KubeObject['metadata']> = { name: 'web' }): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const messages = (causes: { field?: string; message?: string }[]): string[] => causes.map((c) => `${c.field}: ${c.message}`);
const ctx = systemContext('default');

describe('pod strategy', () => {
  it('refuses on create what only a new pod may not have', () => {
    expect(messages(podStrategy.validate!(pod({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }), ctx)))
      .toEqual(['spec.ephemeralContainers: Forbidden: cannot be set on create']);
    expect(messages(podStrategy.validate!(pod({ nodeName: 'n1', schedulingGates: [{ name: 'example.com/gate' }] }), ctx)))
      .toEqual(['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared']);
    expect(podStrategy.updateValidationIsComplete).toBe(true);
  });

  it('refuses a projected token without a service account, and claims named after an ephemeral volume\'s', () => {
    const token = { name: 'tok', projected: { sources: [{ configMap: { name: 'ca' } }, { serviceAccountToken: { path: 'token' } }] } };
    const claim = { name: 'data', persistentVolumeClaim: { claimName: 'web-scratch' } };
    const scratch = { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } };
    expect(messages(podStrategy.validate!(pod({ volumes: [scratch, claim, token] }), ctx))).toEqual([
      'spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: "web-scratch": must not reference a PVC that gets created for an ephemeral volume',
      'spec.volumes[2].projected.sources[1].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set',
    ]);
    expect(podStrategy.validate!(pod({ serviceAccountName: 'default', volumes: [token] }), ctx)).toEqual([]);
    // on update too, with the update's own rules
    const old = pod({ volumes: [token] });
    expect(messages(podStrategy.validateUpdate!(pod({ volumes: [token] }), old, ctx)))
      .toEqual(['spec.volumes[0].projected.sources[1].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set']);
  });

  it('merges matchLabelKeys and mismatchLabelKeys into pod affinity selectors on create', () => {
    const term = () => ({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash', 'absent'], mismatchLabelKeys: ['tenant'], topologyKey: 'zone' });
    const p = pod({ affinity: {
      podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term()] },
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term() }, { weight: 1, podAffinityTerm: { topologyKey: 'zone', matchLabelKeys: ['app'] } }] },
    } }, { name: 'web', labels: { app: 'web', 'pod-template-hash': 'abc', tenant: 't1' } });
    podStrategy.prepareForCreate!(p, ctx);
    const expressions = [{ key: 'pod-template-hash', operator: 'In', values: ['abc'] }, { key: 'tenant', operator: 'NotIn', values: ['t1'] }];
    expect(p.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector).toEqual({ matchLabels: { app: 'web' }, matchExpressions: expressions });
    expect(p.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchExpressions).toEqual(expressions);
    // no selector: matches nothing, and stays so
    expect(p.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector).toBeUndefined();
  });

  it('treats a negative grace period as 1 second', () => {
    const running = (terminationGracePeriodSeconds: number): KubeObject => ({ ...pod({ nodeName: 'n1', terminationGracePeriodSeconds }), status: { phase: 'Running' } });
    expect(podStrategy.gracePeriod!(running(-5), {})).toBe(1);
    expect(podStrategy.gracePeriod!(running(30), {})).toBe(30);
    expect(podStrategy.gracePeriod!(running(30), { gracePeriodSeconds: 0 })).toBe(0);
  });
});
