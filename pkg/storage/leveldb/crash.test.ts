// SIGKILL a process in the middle of writing and compacting, reopen, and check that every acknowledged write is
// there, that every event after the compacted revision is, and that the store recovers what its records hold.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Level } from 'level';
import { build } from 'rolldown';
import { afterAll, expect, it } from 'vitest';
import type { KeyValue, StoreEvent } from '../interface.js';
import { decodeEntry, entriesOf, EVENT_RANGE_END, eventKey, META_COMPACTED, META_REVISION, revisionOfEventKey } from './codec.js';
import { openLevelStore } from './store.js';

const root = mkdtempSync(join(tmpdir(), 'mini-kube-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('a SIGKILL loses no acknowledged write and leaves objects and events consistent', async () => {
  const here = dirname(fileURLToPath(import.meta.url));
  // Node 20 cannot run TypeScript: bundle the writer, importing the native LevelDB binding from where it is installed.
  const script = join(root, 'crash-writer.mjs');
  const level = createRequire(import.meta.url).resolve('level');
  await build({
    input: join(here, '../testing/crash-writer.ts'),
    platform: 'node',
    plugins: [{ name: 'installed-level', resolveId: (id) => (id === 'level' ? { id: level, external: true } : null) }],
    output: { file: script, format: 'esm' },
    logLevel: 'silent',
  });
  const dir = join(root, 'db');
  const acked = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (buffered + chunk.toString()).split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        const [key, rev] = line.split(' ');
        acked.set(key, Math.max(acked.get(key) ?? 0, Number(rev)));
        if (++lines === 3000) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}`))));
  });

  // Read what is on disk, record by record: records sort by revision and hold their events in order.
  const db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  const compacted = Number((await db.get(META_COMPACTED))?.toString() ?? 0);
  const recorded: StoreEvent[] = [];
  for await (const [k, v] of db.iterator({ gte: eventKey(0), lt: EVENT_RANGE_END })) {
    for (const entry of entriesOf(revisionOfEventKey(k), v)) recorded.push(decodeEntry(entry, () => undefined));
  }
  // the newest record's revision, or the one compaction kept beside the compacted revision if it deleted that record
  const kept = Number((await db.get(META_REVISION))?.toString() ?? 0);
  const revision = Math.max(kept, recorded.at(-1)?.revision ?? 0);
  // a batch writes its record alone: what was kept beside it is the last compaction's, never the newest write's
  expect(kept).toBeLessThan(revision);
  await db.close();
  expect(compacted).toBeGreaterThan(0); // compactions ran
  expect(recorded.map((e) => e.revision)).toEqual([...recorded.map((e) => e.revision)].sort((a, b) => a - b));
  // One event per revision after the compacted one, none missing, the newest at the stored revision.
  const events = recorded.filter((e) => e.revision > compacted);
  expect(events.map((e) => e.revision)).toEqual(Array.from({ length: revision - compacted }, (_, i) => compacted + i + 1));
  // The objects are the records' states replayed in order.
  const state = new Map<string, KeyValue>();
  for (const ev of recorded) {
    if (ev.type === 'DELETED') state.delete(ev.key);
    else state.set(ev.key, ev.kv);
  }
  // Every acknowledged write is there (or a later write to the key).
  expect(acked.size).toBeGreaterThan(0);
  for (const [key, rev] of acked) {
    const last = events.filter((e) => e.key === key).at(-1);
    expect(last?.revision ?? state.get(key)?.modRevision).toBeGreaterThanOrEqual(rev);
  }
  // And the store recovers exactly that.
  const store = await openLevelStore(dir);
  expect(store.revision()).toBe(revision);
  expect((await store.list('/registry/')).items.map((kv) => [kv.key, kv.modRevision, kv.bytes.toString()]))
    .toEqual([...state.values()].sort((a, b) => (a.key < b.key ? -1 : 1)).map((kv) => [kv.key, kv.modRevision, kv.bytes.toString()]));
  await store.close();
});
