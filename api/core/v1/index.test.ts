import { describe, expect, it } from 'vitest';
import { refName, type Schema } from '../../schema.js';
import { groupVersion } from './index.js';
import { core } from './names.js';

const { definitions, resources, defaulters } = groupVersion;

/** Every schema node below `s`, with the path that leads to it. */
function* walk(s: Schema, path: string): Generator<[string, Schema]> {
  yield [path, s];
  for (const [k, p] of Object.entries(s.properties ?? {})) yield* walk(p, `${path}.${k}`);
  if (s.items) yield* walk(s.items, `${path}[]`);
  if (typeof s.additionalProperties === 'object') yield* walk(s.additionalProperties, `${path}{}`);
  for (const sub of s.allOf ?? []) yield* walk(sub, `${path}&`);
}
const nodes = Object.entries(definitions).flatMap(([name, s]) => [...walk(s, name)]);
/** The definition a property refers to (directly, or as the single allOf member ref() makes with a description). */
const target = (s: Schema): string | undefined => refName(s) ?? (s.allOf?.length === 1 ? refName(s.allOf[0]) : undefined);

describe('core/v1 definitions', () => {
  it('resolve every $ref within core/v1 or meta', () => {
    const dangling = nodes.map(([path, s]) => [path, refName(s)] as const)
      .filter(([, r]) => r !== undefined && !definitions[r] && !r.startsWith('io.k8s.apimachinery.'));
    expect(dangling).toEqual([]);
  });

  it('gives each resource a definition carrying its group-version-kind, and a list kind', () => {
    for (const r of resources) {
      const gvk = { group: r.group, version: r.version, kind: r.kind };
      expect(definitions[r.definition]?.['x-kubernetes-group-version-kind'], r.plural).toEqual([gvk]);
      if (r.verbs.includes('list')) {
        expect(definitions[`${r.definition}List`]?.['x-kubernetes-group-version-kind'], r.plural)
          .toEqual([{ ...gvk, kind: `${r.kind}List` }]);
      }
    }
  });

  it('defines the kinds its own subresources speak', () => {
    const token = resources.find((r) => r.plural === 'serviceaccounts')?.subresources?.find((s) => s.name === 'token');
    expect(token).toMatchObject({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
    expect(definitions['io.k8s.api.authentication.v1.TokenRequest']?.['x-kubernetes-group-version-kind'])
      .toEqual([{ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }]);
  });

  it('describes every definition and field in one short text', () => {
    const bad = nodes.filter(([path]) => !/[\]}&]$/.test(path))
      .filter(([, s]) => !s.description || s.description.length > 160).map(([path]) => path);
    expect(bad).toEqual([]);
  });

  it('keys every map list by fields its items require or default', () => {
    const problems: string[] = [];
    for (const [path, s] of nodes) {
      if (s['x-kubernetes-list-type'] !== 'map') continue;
      const item = definitions[target(s.items ?? {}) ?? ''];
      if (!item) continue; // items defined by meta/v1
      for (const key of s['x-kubernetes-list-map-keys'] ?? []) {
        const required = item.required?.includes(key);
        const defaulted = item.properties?.[key]?.default !== undefined;
        if (!required && !defaulted) problems.push(`${path}: ${key}`);
      }
    }
    // upstream's one exception: ServiceAccount.secrets is keyed by ObjectReference.name, which is optional
    expect(problems).toEqual(['io.k8s.api.core.v1.ServiceAccount.secrets: name']);
  });

  it('carries upstream list semantics on the lists users patch most', () => {
    const spec = definitions[core('PodSpec')].properties!;
    expect(spec.containers).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-list-type': 'map' });
    expect(spec.volumes).toMatchObject({ 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-list-map-keys': ['name'] });
    expect(spec.topologySpreadConstraints['x-kubernetes-list-map-keys']).toEqual(['topologyKey', 'whenUnsatisfiable']);
    expect(spec.nodeSelector['x-kubernetes-map-type']).toBe('atomic');
    expect(spec.tolerations['x-kubernetes-list-type']).toBe('atomic');
    const container = definitions[core('Container')].properties!;
    expect(container.ports['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    expect(container.env['x-kubernetes-patch-merge-key']).toBe('name');
    expect(definitions[core('ServiceSpec')].properties!.ports['x-kubernetes-list-map-keys']).toEqual(['port', 'protocol']);
    expect(definitions[core('ObjectReference')]['x-kubernetes-map-type']).toBe('atomic');
  });

  it('has the 1.32 fields of the pod spec, containers and ephemeral containers', () => {
    expect(Object.keys(definitions[core('PodSpec')].properties!)).toHaveLength(40);
    expect(definitions[core('PodSpec')].properties).toHaveProperty('resources');
    expect(Object.keys(definitions[core('Container')].properties!)).toHaveLength(24);
    const ephemeral = definitions[core('EphemeralContainer')].properties!;
    expect(Object.keys(ephemeral)).toHaveLength(25);
    expect(ephemeral.ports.description).toMatch(/not allowed/);
  });

  it('sets upstream constant defaults in the schema', () => {
    const spec = definitions[core('PodSpec')].properties!;
    expect([spec.restartPolicy.default, spec.dnsPolicy.default, spec.schedulerName.default]).toEqual(['Always', 'ClusterFirst', 'default-scheduler']);
    expect(spec.terminationGracePeriodSeconds.default).toBe(30);
    expect(spec.securityContext.default).toEqual({});
    expect(definitions[core('ContainerPort')].properties!.protocol.default).toBe('TCP');
    expect(definitions[core('Probe')].properties!.periodSeconds.default).toBe(10);
    expect(definitions[core('Secret')].properties!.type.default).toBe('Opaque');
    // upstream publishes name: "" so that apply can key imagePullSecrets by name
    expect(definitions[core('LocalObjectReference')].properties!.name.default).toBe('');
  });

  it('defaults through the defaulter table', () => {
    const image = (i: string): unknown => {
      const c: Record<string, unknown> = { name: 'c', image: i };
      defaulters![core('Container')](c);
      return c.imagePullPolicy;
    };
    expect(image('nginx')).toBe('Always');
    expect(image('nginx:1.25')).toBe('IfNotPresent');
  });
});

describe('core/v1 resources', () => {
  const byPlural = new Map(resources.map((r) => [r.plural, r]));

  it('lists what discovery lists, with short names and categories', () => {
    expect([...byPlural.keys()].sort()).toEqual(['bindings', 'componentstatuses', 'configmaps', 'endpoints', 'events',
      'limitranges', 'namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates',
      'replicationcontrollers', 'resourcequotas', 'secrets', 'serviceaccounts', 'services']);
    expect(byPlural.get('pods')).toMatchObject({ shortNames: ['po'], categories: ['all'], namespaced: true });
    expect(byPlural.get('services')).toMatchObject({ shortNames: ['svc'], categories: ['all'] });
    expect(byPlural.get('nodes')).toMatchObject({ shortNames: ['no'], namespaced: false });
    expect(byPlural.get('bindings')?.verbs).toEqual(['create']);
    expect(byPlural.get('namespaces')?.verbs).not.toContain('deletecollection');
    expect(byPlural.get('secrets')?.shortNames).toBeUndefined();
  });

  it('serves the pod subresources', () => {
    const subs = Object.fromEntries((byPlural.get('pods')?.subresources ?? []).map((s) => [s.name, s]));
    expect(Object.keys(subs).sort()).toEqual(['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log',
      'portforward', 'proxy', 'status']);
    expect(subs.eviction).toMatchObject({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    expect(subs.exec.verbs).toEqual(['create', 'get']);
    expect(subs.status.verbs).toEqual(['get', 'patch', 'update']);
    const rcScale = byPlural.get('replicationcontrollers')?.subresources?.find((s) => s.name === 'scale');
    expect(rcScale).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
});
