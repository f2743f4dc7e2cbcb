// createdFieldsV1 writes FieldsV1 in one walk; it must equal marking every path flatten finds in a trie and
// rendering it (the way update diffs see the same paths), exclusions and merged duplicate list items included,
// against a built-in's zero object and a custom resource's (none) alike.
import { describe, expect, it } from 'vitest';
import { DEPLOYMENT, lookup } from '../testdata/schemas.js';
import { resolveSchema } from '../schema-lookup.js';
import { encodeFieldsV1, fieldPE, pathOf, type Path } from './fieldpath.js';
import { createdFieldsV1, flatten } from './walk.js';
import { NO_FIELDS, zeroObjectOf, type ZeroStruct } from './zero-object.js';

const schema = resolveSchema(lookup(DEPLOYMENT), lookup);
const EXCLUDED: Path[] = [[fieldPE('status')], [fieldPE('metadata'), fieldPE('resourceVersion')]];
const DEPLOYMENT_ZERO = zeroObjectOf(DEPLOYMENT, lookup);

const reference = (value: unknown, zero: ZeroStruct): unknown => {
  const keys = [...flatten(value, schema, lookup, false, zero).keys()]
    .filter((k) => !EXCLUDED.some((p) => p.every((pe, i) => pathOf(k)[i] === pe)));
  const out = encodeFieldsV1(new Set(keys));
  return Object.keys(out).length > 0 ? out : undefined;
};

const container = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: `${name}:1`, ...extra });
const cases: Record<string, unknown> = {
  empty: {},
  'excluded only': { status: { replicas: 3 }, metadata: { resourceVersion: '5' } },
  deployment: {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', labels: { b: '1', a: '2' }, annotations: {}, finalizers: ['z', 'a'], ownerReferences: [{ uid: 'u2', name: 'x' }, { uid: 'u1' }] },
    spec: {
      replicas: 2, selector: { matchLabels: { app: 'web' } }, strategy: { type: 'RollingUpdate', rollingUpdate: {} },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          nodeSelector: { disk: 'ssd' }, tolerations: [{ key: 'k' }, { key: 'k' }], restartPolicy: null,
          containers: [
            container('web', { ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'B', value: '1' }, { name: 'A' }], args: ['a', 'a'] }),
            container('sidecar', { resources: { limits: {}, requests: { cpu: '1' } }, volumeMounts: [] }),
          ],
          volumes: [{ name: 'v', emptyDir: {} }],
        },
      },
    },
    status: { replicas: 1 },
  },
  'duplicate map-list items merge': { spec: { template: { spec: { containers: [container('a', { image: 'x' }), container('a', { args: ['y'] })] } } } },
  'duplicate set items merge': { metadata: { finalizers: ['f', 'f', 'e'] } },
};

describe('createdFieldsV1', () => {
  for (const [zeroName, zero] of [['a built-in', DEPLOYMENT_ZERO], ['a custom resource', NO_FIELDS]] as const) {
    for (const [name, value] of Object.entries(cases)) {
      it(`renders the trie of every path a create writes, as ${zeroName}: ${name}`, () => {
        const got = createdFieldsV1(value, schema, lookup, EXCLUDED, zero);
        expect(got).toEqual(reference(value, zero));
        // key order is part of FieldsV1 ("." first, then sorted path elements)
        expect(JSON.stringify(got)).toBe(JSON.stringify(reference(value, zero)));
      });
    }
  }

  // upstream's create compares with scope.Creater.New(kind): a container is the writer's own only where that lacks it
  const created = {
    metadata: { labels: { app: 'web' }, creationTimestamp: null },
    spec: {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
      template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [container('web', { resources: {} })] } },
    },
  };
  const web = { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} };

  it('makes a built-in\'s pointer structs, maps and lists members, never its value structs or the nil lists it had (a Deployment\'s)', () => {
    expect(createdFieldsV1(created, schema, lookup, [], DEPLOYMENT_ZERO)).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} },
        // the zero template's creationTimestamp is null already: not written
        'f:template': { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': web } } },
      },
    });
  });

  it('makes every object and list of a custom resource a member (its zero object is an empty Unstructured)', () => {
    expect(createdFieldsV1(created, schema, lookup, [], NO_FIELDS)).toEqual({
      'f:metadata': { '.': {}, 'f:creationTimestamp': {}, 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        '.': {},
        'f:strategy': { '.': {}, 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} },
        'f:template': {
          '.': {},
          'f:metadata': { '.': {}, 'f:creationTimestamp': {}, 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': { '.': {}, 'f:containers': { '.': {}, 'k:{"name":"web"}': web } },
        },
      },
    });
  });

  it('leaves out what equals the zero object and owns an empty list where it held null', () => {
    const zeroed = { spec: { strategy: {}, template: { metadata: { creationTimestamp: null }, spec: { containers: [] } } } };
    expect(createdFieldsV1(zeroed, schema, lookup, [], DEPLOYMENT_ZERO)).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': {} } } } });
  });
});
