// After a busy spell (10,000 pods created, a list encoded), a component's heap is mostly garbage that V8 keeps
// committed until its next major GC, which a process gone quiet never reaches (V8's memory reducer did not run
// in 25 s of idling): the apiserver sat at ~160 MB of heap with ~50 MB live, for good. Once the event loop has
// been idle for a second after the heap grew, full collections hand the pages back, as Go's scavenger returns an
// idle heap's memory. Not sooner: the collections pause the process for 0.1-0.3 s with a large heap and leave V8
// sized for an idle one, which a burst of requests arriving half a second later paid for (creates with 64 clients
// in alternating 2 s bursts ran 15% slower). Started by the component commands, never by in-process test servers
// (one process, many).
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from 'pino';

export interface HeapReclaimerOptions {
  logger: Logger;
  /** How often the event loop's use is looked at. */
  periodMs?: number;
  /** How long the event loop must have been idle (in whole periods) before a collection. */
  idleMs?: number;
  /** Heap growth since the last collection (or start) worth a full collection. */
  growthBytes?: number;
  /** Event-loop utilization under which a period counts as idle. */
  idleUtilization?: number;
}

/** Node gives no gc() without --expose-gc: the flag is set for the moment it takes to fetch the function. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  return gc;
}

export function startHeapReclaimer(o: HeapReclaimerOptions): { stop(): void } {
  const { periodMs = 250, idleMs = 1000, growthBytes = 32 * 1024 * 1024, idleUtilization = 0.05 } = o;
  const gc = exposedGc();
  let floor = getHeapStatistics().total_heap_size;
  let last = performance.eventLoopUtilization();
  let idlePeriods = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const before = getHeapStatistics().total_heap_size;
    if (before < floor) floor = before;
    idlePeriods = busy > idleUtilization ? 0 : idlePeriods + 1;
    if (idlePeriods * periodMs < idleMs || before < floor + growthBytes) return;
    const started = performance.now();
    // The second collection finishes the first one's sweeping and compacts what it left fragmented (measured with
    // 10,000 pods: old space 140 MB → 92 MB after one collection, → 56 MB after two).
    gc();
    gc();
    floor = getHeapStatistics().total_heap_size;
    last = performance.eventLoopUtilization(); // the collection itself is not activity
    idlePeriods = 0;
    o.logger.debug({ heapBeforeMb: Math.round(before / 1048576), heapAfterMb: Math.round(floor / 1048576), ms: Math.round(performance.now() - started) }, 'idle: heap collected');
  }, periodMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
