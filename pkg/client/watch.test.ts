import { describe, expect, it } from 'vitest';
import { decodeWatch, watchError, WatchDecodeError } from './watch.js';

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p;
}
const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => { const out: T[] = []; for await (const x of it) out.push(x); return out; };

describe('decodeWatch', () => {
  it('frames events across chunk boundaries, several per chunk, and a last line without newline', async () => {
    const a = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '1' } } });
    const b = JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'a', resourceVersion: '2' } } });
    const c = JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '3', annotations: { 'k8s.io/initial-events-end': 'true' } } } });
    const text = `${a}\n${b}\n\n${c}`;
    const evs = await collect(decodeWatch(chunks(text.slice(0, 10), text.slice(10, a.length + 5), text.slice(a.length + 5))));
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'BOOKMARK']);
    expect(evs[2]!.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('keeps a UTF-8 character split between chunks', async () => {
    const bytes = Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'é€' } } })}\n`);
    const at = bytes.indexOf(0xe2) + 1; // inside the three bytes of €
    const [ev] = await collect(decodeWatch(chunks(bytes.subarray(0, at), bytes.subarray(at))));
    expect(ev!.object.metadata?.name).toBe('é€');
  });

  it('yields ERROR events whose Status becomes a StatusError', async () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
    const [ev] = await collect(decodeWatch(chunks(`${JSON.stringify({ type: 'ERROR', object: status })}\n`)));
    expect(ev!.type).toBe('ERROR');
    if (ev!.type !== 'ERROR') throw new Error('unreachable');
    const err = watchError(ev!.object);
    expect(err.code).toBe(410);
    expect(err.reason).toBe('Expired');
    expect(err.message).toMatch(/too old/);
  });

  it('throws on a malformed line or an unknown event type', async () => {
    await expect(collect(decodeWatch(chunks('{not json\n')))).rejects.toBeInstanceOf(WatchDecodeError);
    await expect(collect(decodeWatch(chunks('{"type":"WHAT","object":{}}\n')))).rejects.toBeInstanceOf(WatchDecodeError);
  });
});
