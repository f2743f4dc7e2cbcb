import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('apiregistration/v1', () => {
  it('references only known definitions', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
  });

  it('serves cluster-scoped apiservices with status, the service port defaulting to 443', () => {
    expect(groupVersion.resources.map((r) => [r.plural, r.namespaced, r.subresources?.map((s) => s.name)])).toEqual([['apiservices', false, ['status']]]);
    expect(groupVersion.definitions['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference']!.properties!.port!.default).toBe(443);
  });
});
