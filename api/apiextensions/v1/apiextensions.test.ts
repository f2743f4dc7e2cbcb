import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('apiextensions/v1', () => {
  it('references only known definitions', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
  });

  it('serves cluster-scoped customresourcedefinitions with a status subresource', () => {
    const [rt] = groupVersion.resources;
    expect(rt).toMatchObject({ plural: 'customresourcedefinitions', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'] });
    expect(rt!.subresources?.map((s) => s.name)).toEqual(['status']);
  });

  it('defaults singular, listKind, conversion and storedVersions as upstream', () => {
    const d = groupVersion.defaulters!;
    const spec: Record<string, any> = { names: { kind: 'CronTab', plural: 'crontabs' }, versions: [{ name: 'v1', storage: true }] };
    d['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec']!(spec);
    expect(spec.names).toMatchObject({ singular: 'crontab', listKind: 'CronTabList' });
    expect(spec.conversion).toEqual({ strategy: 'None' });
    const crd: Record<string, any> = { spec };
    d['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition']!(crd);
    expect(crd.status.storedVersions).toEqual(['v1']);
  });
});
