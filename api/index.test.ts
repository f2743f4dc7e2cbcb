import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { allDefaulters, allDefinitions, builtinGroupVersions, findResource } from './index.js';
import { danglingRefs } from './meta/v1/refs.js';
import { apiVersionOf } from './types.js';

const resources = builtinGroupVersions.flatMap((gv) => gv.resources);

describe('api table', () => {
  it('resolves every $ref of every definition', () => {
    expect(danglingRefs(allDefinitions, allDefinitions)).toEqual([]);
  });

  it('defines every resource kind, the list kind of listable ones and every subresource kind', () => {
    const missing = resources.flatMap((r) => [r.definition, ...(r.verbs.includes('list') ? [`${r.definition}List`] : [])])
      .filter((d) => !allDefinitions[d]);
    expect(missing).toEqual([]);
    const kinds = new Set(Object.values(allDefinitions).flatMap((s) =>
      (s['x-kubernetes-group-version-kind'] ?? []).map((g) => `${apiVersionOf(g.group, g.version)}/${g.kind}`)));
    // connect subresources (exec, attach, proxy, ...) name query-option kinds that have no schema upstream either
    const subKinds = resources.flatMap((r) => r.subresources ?? []).filter((s) => !s.kind.endsWith('Options'))
      .map((s) => `${apiVersionOf(s.group, s.version)}/${s.kind}`);
    expect(subKinds.filter((k) => !kinds.has(k))).toEqual([]);
  });

  it('names each resource definition after its kind and group-version', () => {
    const wrong = resources.filter((r) => {
      const gvks = allDefinitions[r.definition]?.['x-kubernetes-group-version-kind'] ?? [];
      return !gvks.some((g) => g.group === r.group && g.version === r.version && g.kind === r.kind);
    });
    expect(wrong.map((r) => r.plural)).toEqual([]);
  });

  it('has no duplicate plural within a group-version', () => {
    for (const gv of builtinGroupVersions) {
      const plurals = gv.resources.map((r) => r.plural);
      expect(new Set(plurals).size, `${gv.group}/${gv.version}`).toBe(plurals.length);
      expect(gv.resources.every((r) => r.group === gv.group && r.version === gv.version)).toBe(true);
    }
  });

  it('keys defaulters by existing definitions', () => {
    expect(Object.keys(allDefaulters).filter((d) => !allDefinitions[d])).toEqual([]);
  });

  it('lists core first, then groups in apiserver priority order', () => {
    expect(builtinGroupVersions.map((gv) => apiVersionOf(gv.group, gv.version))).toEqual([
      'v1', 'apiregistration.k8s.io/v1', 'apps/v1', 'events.k8s.io/v1', 'authentication.k8s.io/v1', 'authorization.k8s.io/v1', 'autoscaling/v2', 'autoscaling/v1', 'batch/v1', 'certificates.k8s.io/v1', 'networking.k8s.io/v1', 'policy/v1', 'policy/v1beta1',
      'rbac.authorization.k8s.io/v1', 'storage.k8s.io/v1', 'admissionregistration.k8s.io/v1', 'apiextensions.k8s.io/v1', 'scheduling.k8s.io/v1', 'coordination.k8s.io/v1',
      'node.k8s.io/v1', 'discovery.k8s.io/v1', 'flowcontrol.apiserver.k8s.io/v1',
    ]);
  });

  it('validates real manifests against the whole table', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const [name, schema] of Object.entries(allDefinitions)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const valid = (definition: string, value: unknown) => ajv.validate({ $ref: `#/components/schemas/${definition}` }, value);
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } };
    const deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '10%' } }, template },
    };
    expect(valid('io.k8s.api.apps.v1.Deployment', deployment)).toBe(true);
    expect(valid('io.k8s.api.apps.v1.Deployment', { ...deployment, spec: { ...deployment.spec, replicas: 'three' } })).toBe(false);
    expect(valid('io.k8s.api.batch.v1.CronJob', {
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template, backoffLimit: 2 } } },
    })).toBe(true);
    expect(valid('io.k8s.api.rbac.v1.RoleBinding', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u' }] })).toBe(true);
    expect(valid('io.k8s.api.networking.v1.Ingress', {
      spec: { rules: [{ host: 'a.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 's', port: { number: 80 } } } }] } }] },
    })).toBe(true);
    expect(valid('io.k8s.api.networking.v1.Ingress', { spec: { rules: [{ http: { paths: [{ path: '/' }] } }] } })).toBe(false);
  });

  it('finds resources by group, version and plural', () => {
    expect(findResource('apps', 'v1', 'deployments')?.kind).toBe('Deployment');
    expect(findResource('', 'v1', 'pods')?.kind).toBe('Pod');
    expect(findResource('apps', 'v1beta1', 'deployments')).toBeUndefined();
    expect(findResource('apps', 'v1', 'pods')).toBeUndefined();
  });
});
