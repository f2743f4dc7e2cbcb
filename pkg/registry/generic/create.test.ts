import { describe, expect, it } from 'vitest';
import { allDefaulters, allDefinitions, builtinGroupVersions } from '../../../api/index.js';
import { StorageError } from '../../storage/errors.js';
import type { Store } from '../../storage/interface.js';
import { createMemoryStore } from '../../storage/memory/store.js';
import { createRegistries } from '../index.js';
import { create } from './create.js';

describe('create with generateName', () => {
  it('a name collision is retried with a fresh name, stored under the key of the name it gets', async () => {
    const inner = createMemoryStore();
    let collide = 1;
    // the first create collides, as a generated name already taken does
    const create1: Store['create'] = (key, obj) => (collide-- > 0 ? Promise.reject(new StorageError('KeyExists', key, 'exists')) : inner.create(key, obj));
    const store = new Proxy(inner, {
      get: (target, prop) => (prop === 'create' ? create1 : (Reflect.get(target, prop) as (...a: unknown[]) => unknown)?.bind?.(target) ?? Reflect.get(target, prop)),
    });
    const regs = await createRegistries({ store, groupVersions: builtinGroupVersions, definitions: allDefinitions, defaulters: allDefaulters, serviceClusterIpRange: '10.96.0.0/12' });
    try {
      const ctx = { namespace: 'default', dryRun: false, fieldManager: 'test', fieldValidation: 'Strict' as const, warnings: [], now: new Date() };
      const res = await create(regs.get('', 'v1', 'configmaps')!, ctx, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cm-' }, data: { a: 'b' } });
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
