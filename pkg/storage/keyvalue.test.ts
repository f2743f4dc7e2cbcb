import { describe, expect, it } from 'vitest';
import { decodeObject } from './leveldb/codec.js';
import { stampHeldKeyValue, stampKeyValue } from './keyvalue.js';

const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } };

describe('stored KeyValues', () => {
  it('stamps the revision into a copy and serializes it once', () => {
    const kv = stampKeyValue('/configmaps/ns/a', cm, 7, 7);
    expect(cm.metadata).not.toHaveProperty('resourceVersion');
    expect(kv.object.metadata?.resourceVersion).toBe('7');
    expect(JSON.parse(kv.bytes.toString())).toEqual(kv.object);
  });

  it('a held write keeps its parsed object past release only if it was read before', () => {
    // the held object is the stamped copy, which shares the input's nested values; a parse has its own
    const input = { ...cm, data: { k: 'v' } };
    const read = stampHeldKeyValue('/configmaps/ns/a', input, 8, 8);
    expect(read.object.data).toBe(input.data);
    read.release();
    expect(read.object.data).toBe(input.data);

    const unread = stampHeldKeyValue('/configmaps/ns/a', input, 9, 9);
    unread.release();
    const parsed = unread.object;
    expect(parsed.data).not.toBe(input.data);
    expect(parsed).toEqual(JSON.parse(unread.bytes.toString()));
    expect(parsed.metadata).toEqual({ name: 'a', namespace: 'ns', resourceVersion: '9' });
    expect(unread.object).toBe(parsed); // parsed once, then kept weakly
  });

  it('keeps bytes in allocations of their own, never a slice of Buffer\'s shared pool or of a larger record', () => {
    const own = (b: Buffer): boolean => b.byteOffset === 0 && b.buffer.byteLength === b.length;
    expect(own(stampKeyValue('/configmaps/ns/a', cm, 7, 7).bytes)).toBe(true);
    expect(own(stampHeldKeyValue('/configmaps/ns/a', cm, 8, 8).bytes)).toBe(true);
    expect(Buffer.from(JSON.stringify(cm)).buffer.byteLength).toBeGreaterThan(1024); // what Buffer.from would have given
    const record = Buffer.concat([Buffer.from('9 9\n'), Buffer.from(JSON.stringify(cm))]);
    const read = decodeObject('/configmaps/ns/a', record);
    expect(own(read.bytes)).toBe(true);
    expect(read.object).toEqual(cm);
  });
});
