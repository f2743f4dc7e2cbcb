// createdFieldsV1 writes FieldsV1 in one walk; it must equal marking every path flatten finds in a trie and
// rendering it (the way update diffs see the same paths), exclusions and merged duplicate list items included.
import { describe, expect, it } from 'vitest';
import { DEPLOYMENT, lookup } from '../testdata/schemas.js';
import { resolveSchema } from '../schema-lookup.js';
import { encodeFieldsV1, fieldPE, pathOf, type Path } from './fieldpath.js';
import { createdFieldsV1, flatten } from './walk.js';

const schema = resolveSchema(lookup(DEPLOYMENT), lookup);
const EXCLUDED: Path[] = [[fieldPE('status')], [fieldPE('metadata'), fieldPE('resourceVersion')]];

const reference = (value: unknown): unknown => {
  const keys = [...flatten(value, schema, lookup, false).keys()]
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
  for (const [name, value] of Object.entries(cases)) {
    it(`renders the trie of every path: ${name}`, () => {
      const got = createdFieldsV1(value, schema, lookup, EXCLUDED);
      expect(got).toEqual(reference(value));
      // key order is part of FieldsV1 ("." first, then sorted path elements)
      expect(JSON.stringify(got)).toBe(JSON.stringify(reference(value)));
    });
  }
});
