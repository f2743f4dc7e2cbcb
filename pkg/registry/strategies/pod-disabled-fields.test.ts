import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { dropDisabledPodFields } from './pod-disabled-fields.js';

const spec = (): KubeObject => ({
  hostUsers: false,
  resources: { limits: { cpu: '1' } },
  resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu' }],
  securityContext: { runAsUser: 1000, supplementalGroupsPolicy: 'Strict', seLinuxChangePolicy: 'Recursive' },
  containers: [{
    name: 'c', image: 'nginx', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    resources: { limits: { cpu: '1' }, claims: [{ name: 'gpu' }] }, securityContext: { procMount: 'Unmasked' },
  }],
  volumes: [{ name: 'img', image: { reference: 'busybox' } }, { name: 'p', projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'ca' } }, { configMap: { name: 'cm' } }] } }],
});

describe('dropDisabledPodFields', () => {
  it('drops on create what gates off in 1.32 cover', () => {
    const s = spec();
    dropDisabledPodFields(s);
    expect(s).toEqual({
      securityContext: { runAsUser: 1000 },
      containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '1' } }, securityContext: { procMount: 'Default' } }],
      volumes: [{ name: 'img' }, { name: 'p', projected: { sources: [{}, { configMap: { name: 'cm' } }] } }],
    });
  });

  it('keeps on an update what the stored spec already used', () => {
    const s = spec();
    dropDisabledPodFields(s, spec());
    expect(s).toEqual(spec());
  });

  it('leaves a spec without them as it is (a frozen one too)', () => {
    const plain = Object.freeze({ containers: Object.freeze([Object.freeze({ name: 'c', image: 'nginx' })]) }) as KubeObject;
    expect(() => dropDisabledPodFields(plain)).not.toThrow();
  });
});
