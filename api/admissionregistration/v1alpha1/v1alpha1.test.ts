import { describe, expect, it } from 'vitest';
import { allDefaulters, allDefinitions, builtinGroupVersions } from '../../index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion, withInitializers } from './index.js';

describe('admissionregistration.k8s.io/v1alpha1 (Initializers)', () => {
  const api = withInitializers({ groupVersions: builtinGroupVersions, definitions: allDefinitions, defaulters: allDefaulters });

  it('adds the group-version and ObjectMeta.initializers, and references only known definitions', () => {
    expect(danglingRefs(api.definitions, api.definitions)).toEqual([]);
    expect(api.groupVersions.at(-1)!.resources).toBe(groupVersion.resources);
    expect(Object.keys(api.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.properties!)).toContain('initializers');
  });

  it('leaves the static table alone', () => {
    expect(builtinGroupVersions).not.toContain(groupVersion);
    expect(allDefinitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.properties!.initializers).toBeUndefined();
  });
});
