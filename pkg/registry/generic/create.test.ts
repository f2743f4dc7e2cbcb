import { describe, expect, it } from 'vitest';
import { StorageError } from '../../storage/errors.js';
import type { Store } from '../../storage/interface.js';
import { createMemoryStore } from '../../storage/memory/store.js';
import { create } from './create.js';
import { registriesOver, testContext as context } from './testing.js';

describe('create with generateName', () => {
  it('a name collision is retried with a fresh name, stored under the key of the name it gets', async () => {
    const inner = createMemoryStore();
    let collide = 1;
    // the first create collides, as a generated name already taken does
    const create1: Store['create'] = (key, obj) => (collide-- > 0 ? Promise.reject(new StorageError('KeyExists', key, 'exists')) : inner.create(key, obj));
    const store = new Proxy(inner, {
      get: (target, prop) => (prop === 'create' ? create1 : (Reflect.get(target, prop) as (...a: unknown[]) => unknown)?.bind?.(target) ?? Reflect.get(target, prop)),
    });
    const regs = await registriesOver(store);
    try {
      const res = await create(regs.get('', 'v1', 'configmaps')!, context(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cm-' }, data: { a: 'b' } });
      const name = res.object.metadata!.name!;
      expect(name).toMatch(/^cm-[a-z0-9]{5}$/);
      const stored = (await inner.list('/registry/configmaps/default/')).items;
      expect(stored.map((kv) => [kv.key, kv.object.metadata?.name])).toEqual([[`/registry/configmaps/default/${name}`, name]]);
    } finally {
      regs.stop();
      await inner.close();
    }
  });
});

describe('decoding a built-in object', () => {
  it('drops omitempty scalars at their zero value, as Go encodes them, and keeps pointers and fields without omitempty', async () => {
    const store = createMemoryStore();
    const regs = await registriesOver(store);
    try {
      const res = await create(regs.get('apps', 'v1', 'deployments')!, context(), {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', generateName: '', namespace: '' },
        spec: {
          replicas: 0, revisionHistoryLimit: 0, minReadySeconds: 0, paused: false,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
          selector: { matchLabels: { app: 'd' } },
          template: {
            metadata: { labels: { app: 'd' } },
            spec: {
              hostNetwork: false, enableServiceLinks: false,
              containers: [{ name: 'c', image: 'nginx', stdin: false, tty: false, ports: [{ containerPort: 80, hostPort: 0, protocol: '' }], securityContext: { privileged: false } }],
            },
          },
        },
      });
      const spec = res.object.spec as Record<string, any>;
      expect(res.object.metadata).not.toHaveProperty('generateName');
      expect(spec).toMatchObject({ replicas: 0, revisionHistoryLimit: 0, strategy: { rollingUpdate: { maxSurge: 0 } } });
      expect(spec).not.toHaveProperty('minReadySeconds');
      expect(spec).not.toHaveProperty('paused');
      const pod = spec.template.spec;
      expect(pod).not.toHaveProperty('hostNetwork');
      expect(pod.enableServiceLinks).toBe(false);
      const [c] = pod.containers;
      expect(c).not.toHaveProperty('stdin');
      expect(c).not.toHaveProperty('tty');
      expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
      expect(c.securityContext).toEqual({ privileged: false });
    } finally {
      regs.stop();
      await store.close();
    }
  });
});
