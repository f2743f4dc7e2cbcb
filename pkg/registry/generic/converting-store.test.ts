import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { createMemoryStore } from '../../storage/memory/store.js';
import type { StoreEvent } from '../../storage/interface.js';
import { convertingStore, type ViewCodec } from './converting-store.js';

const widget = (name: string): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { size: 1 } });

describe('converting store', () => {
  it('converts reads and events through the codec', async () => {
    let views = 0;
    const codec: ViewCodec = { toView: (o) => { views++; return { ...o, apiVersion: 'example.com/v2' }; }, toStorage: (o) => ({ ...o, apiVersion: 'example.com/v1' }) };
    const view = convertingStore(createMemoryStore(), codec);
    const created = await view.create('/widgets/a', widget('a'));
    expect(created.object.apiVersion).toBe('example.com/v2');
    expect(JSON.parse(created.bytes.toString()).apiVersion).toBe('example.com/v2');
    expect((await view.get('/widgets/a'))!.object.apiVersion).toBe('example.com/v2');
    expect(views).toBe(2);
  });

  it('an identity view hands on what the store has, its objects never looked at', async () => {
    const codec: ViewCodec = { toView: () => { throw new Error('looked at'); }, toStorage: (o) => o, identity: true };
    const inner = createMemoryStore();
    const view = convertingStore(inner, codec);
    const events: StoreEvent[] = [];
    const ac = new AbortController();
    view.watch('/widgets/', { fromRevision: 0, signal: ac.signal }, { onEvent: (ev) => events.push(ev), onClose: () => undefined });
    const created = await view.create('/widgets/a', widget('a'));
    expect(created).toBe(await inner.get('/widgets/a'));
    expect((await view.get('/widgets/a'))).toBe(created);
    expect((await view.list('/widgets/')).items).toEqual([created]);
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]!.kv).toBe(created);
    ac.abort();
  });

  it('a lazy view converts an object when it is first read, once, and serves the same bytes', async () => {
    let views = 0;
    const codec: ViewCodec = { toView: (o) => { views++; return { ...o, apiVersion: 'example.com/v2' }; }, toStorage: (o) => ({ ...o, apiVersion: 'example.com/v1' }), lazy: true };
    const view = convertingStore(createMemoryStore(), codec);
    const events: StoreEvent[] = [];
    const ac = new AbortController();
    view.watch('/widgets/', { fromRevision: 0, signal: ac.signal }, { onEvent: (ev) => events.push(ev), onClose: () => undefined });
    const created = await view.create('/widgets/a', widget('a'));
    await expect.poll(() => events.length).toBe(1);
    expect(views).toBe(1); // the create's own result
    const ev = events[0]!.kv;
    expect(ev.modRevision).toBe(created.modRevision);
    expect(JSON.parse(ev.bytes.toString())).toEqual(ev.object);
    expect(ev.object.apiVersion).toBe('example.com/v2');
    expect(created.object).toEqual(ev.object);
    expect(views).toBe(2);
    ac.abort();
  });
});
