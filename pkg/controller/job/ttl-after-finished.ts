// The ttl-after-finished controller (upstream pkg/controller/ttlafterfinished): deletes a finished Job (Complete or
// Failed) ttlSecondsAfterFinished after it finished, with foreground propagation so its pods go first.
import { isNotFound, realClock } from '../../client/index.js';
import { objOf, parseTime, workerLoop } from '../shared/controller-utils.js';
import type { ControllerContext } from '../shared/types.js';
import { isJobFinished } from './job-controller.js';

export async function startTTLAfterFinishedController(ctx: ControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const informer = ctx.informers.informerFor({ group: 'batch', version: 'v1', resource: 'jobs', namespaced: true, kind: 'Job' });
  const jobs = informer.lister();
  const loop = workerLoop(ctx, 'ttl-after-finished-controller', sync);
  const maybe = (j: Parameters<typeof loop.enqueue>[0]): void => {
    if (j.spec?.ttlSecondsAfterFinished != null && !j.metadata?.deletionTimestamp && isJobFinished(j)) loop.enqueue(j);
  };
  informer.addEventHandler({ onAdd: maybe, onUpdate: (_o, j) => maybe(j), onDelete: (o) => void objOf(o) });

  async function sync(key: string): Promise<void> {
    const job = jobs.get(key);
    if (!job || job.metadata?.deletionTimestamp) return;
    const ttl = job.spec?.ttlSecondsAfterFinished as number | undefined;
    const done = isJobFinished(job);
    if (ttl == null || !done) return;
    const finishedAt = parseTime(job.status?.completionTime) ?? parseTime(done.lastTransitionTime) ?? clock.now();
    const wait = finishedAt + ttl * 1000 - clock.now();
    if (wait > 0) { loop.enqueueAfter(key, wait); return; }
    // Re-read: the TTL may have changed since the cache saw it.
    const fresh = await ctx.client.jobs(job.metadata!.namespace!).get(job.metadata!.name!).catch((e: unknown) => { if (isNotFound(e)) return undefined; throw e; });
    if (!fresh || fresh.spec?.ttlSecondsAfterFinished == null || fresh.metadata?.uid !== job.metadata?.uid) return;
    const freshWait = finishedAt + fresh.spec.ttlSecondsAfterFinished * 1000 - clock.now();
    if (freshWait > 0) { loop.enqueueAfter(key, freshWait); return; }
    try {
      await ctx.client.jobs(job.metadata!.namespace!).delete(job.metadata!.name!, {
        propagationPolicy: 'Foreground', preconditions: { uid: job.metadata!.uid, resourceVersion: fresh.metadata?.resourceVersion },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  await loop.run();
}
