import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// In a child process of its own: exposing gc() is process-wide, and the heap figures must be the child's alone.
const CHILD = `
import { getHeapStatistics } from 'node:v8';
import { startHeapReclaimer } from ${JSON.stringify(pathToFileURL(resolve('dist/cmd/heap-reclaimer.js')).href)};
const collections = [];
startHeapReclaimer({ logger: { debug: (o) => collections.push({ ...o, at: performance.now() }) } });
const heap = () => getHeapStatistics().total_heap_size;
const used = () => getHeapStatistics().used_heap_size;
const start = heap();
// Busy: objects that live long enough to reach the old generation, while the event loop never rests.
let kept = [];
const busyUntil = performance.now() + 1500;
await new Promise((done) => {
  const step = () => {
    for (let i = 0; i < 20000; i++) kept.push({ s: 'x'.repeat(64) + i });
    if (kept.length > 400000) kept = [];
    if (performance.now() < busyUntil) setImmediate(step); else done();
  };
  step();
});
// The busy phase ends holding a known amount (~30 MB) that then becomes garbage.
kept = Array.from({ length: 300000 }, (_, i) => ({ s: 'y'.repeat(64) + i }));
const grown = heap();
const usedGrown = used();
const busyCollections = collections.length;
kept = null;
// Idle: the reclaimer should hand the garbage back within a few periods.
const deadline = performance.now() + 10000;
while (collections.length === busyCollections && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ start, grown, after: heap(), usedGrown, usedAfter: used(), busyCollections, idleCollections: collections.length - busyCollections }));
`;

describe('the idle heap reclaimer', () => {
  it('leaves a busy process alone and collects once it goes idle with a grown heap', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD], { timeout: 30_000 });
    const r = JSON.parse(stdout) as { start: number; grown: number; after: number; usedGrown: number; usedAfter: number; busyCollections: number; idleCollections: number };
    expect(r.grown - r.start).toBeGreaterThan(32 * 1024 * 1024);
    expect(r.busyCollections).toBe(0);
    expect(r.idleCollections).toBe(1);
    // the garbage is gone and the heap smaller (by how much depends on what V8 kept around)
    expect(r.usedAfter).toBeLessThan(r.usedGrown - 20 * 1024 * 1024);
    expect(r.after).toBeLessThan(r.grown);
  }, 40_000);
});
