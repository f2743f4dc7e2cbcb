// Keys named __proto__ (or constructor.prototype) in a body or patch are data, never a way into the server's
// prototypes: every write path takes them and leaves Object.prototype alone.
import { afterEach, describe, expect, it } from 'vitest';
import { create } from './create.js';
import { patchBuilder } from './patch.js';
import { testContext, withRegistries } from './testing.js';
import { update } from './update.js';

const polluted = (): unknown => (({}) as Record<string, unknown>).polluted;

describe('prototype keys', () => {
  afterEach(() => { delete (Object.prototype as Record<string, unknown>).polluted; });

  it('are never written into Object.prototype by creates, patches of every type, or apply', async () => {
    await withRegistries(async (regs) => {
    const ctx = testContext({ fieldValidation: 'Ignore' });
    const cms = regs.get('', 'v1', 'configmaps')!;
    const body = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"1"},"__proto__":{"polluted":"create"}},"data":{"__proto__":"x"}}');
    await create(cms, ctx, body);
    expect(polluted()).toBeUndefined();
    const deep = JSON.parse('{"metadata":{"__proto__":{"polluted":"patch"},"labels":{"__proto__":{"polluted":"labels"}}},"data":{"constructor":{"prototype":{"polluted":"ctor"}}}}');
    for (const type of ['merge', 'strategic'] as const) {
      await update(cms, ctx, patchBuilder(cms, ctx, 'c', type, deep, false)).catch(() => undefined);
      expect(polluted(), type).toBeUndefined();
    }
    const ops = [{ op: 'add', path: '/__proto__/polluted', value: 'json' }, { op: 'add', path: '/metadata/constructor/prototype/polluted', value: 'json' }];
    for (const op of ops) {
      await expect(update(cms, ctx, patchBuilder(cms, ctx, 'c', 'json', [op], false))).rejects.toMatchObject({ code: 422 });
      expect(polluted()).toBeUndefined();
    }
    const applier = { ...ctx, fieldManager: 'applier' };
    // an unknown field is refused by apply (as upstream's typed patch); a map key is data
    const unknown = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","__proto__":{"polluted":"apply"}}}');
    await expect(update(cms, applier, patchBuilder(cms, applier, 'c', 'apply', unknown, true))).rejects.toMatchObject({ code: 400 });
    const applied = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"b":"2","__proto__":"x"}}');
    await update(cms, applier, patchBuilder(cms, applier, 'c', 'apply', applied, true));
    expect(polluted()).toBeUndefined();
    const stored = await cms.get(ctx, 'c');
    // a ConfigMap key may be "__proto__" (upstream takes it); in typed metadata it is an unknown field, dropped
    expect(Object.hasOwn(stored.object.data!, '__proto__')).toBe(true);
    expect(Object.hasOwn(stored.object.metadata!, '__proto__')).toBe(false);
    expect(JSON.parse(stored.bytes.toString()).data).toMatchObject(JSON.parse('{"__proto__":"x","b":"2"}'));
    expect(stored.object.metadata?.labels).toEqual({ a: '1' });
    });
  });
});
