// Runs a recycler pod to its end (upstream pkg/volume/util/recyclerclient RecycleVolumeByWatchingPodUntilCompletion):
// the pod and the events about it are watched before it is created; the events are passed on to the volume; the pod
// succeeding is success, failing or going away is an error; the pod is deleted whatever happened. No timeout of its
// own: the pod's activeDeadlineSeconds ends it.
import { isAlreadyExists, type Client, type CoreEvent, type KubeObject, type Watch, type WatchEvent } from '../../client/index.js';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

type Tagged = { from: 'pod'; ev: WatchEvent } | { from: 'event'; ev: WatchEvent<CoreEvent> };

/** The two watches as one stream, ending once both have ended (upstream's merged channel). */
async function* merged(pods: Watch, events: Watch<CoreEvent>): AsyncGenerator<Tagged> {
  const queue: Tagged[] = [];
  let open = 2;
  let wake: (() => void) | undefined;
  const pump = async <T extends Tagged['from']>(from: T, w: AsyncIterable<WatchEvent<KubeObject>>): Promise<void> => {
    try {
      for await (const ev of w) { queue.push({ from, ev } as Tagged); wake?.(); }
    } catch { /* a broken watch is a closed one */ }
    open--;
    wake?.();
  };
  void pump('pod', pods);
  void pump('event', events as AsyncIterable<WatchEvent<KubeObject>>);
  for (;;) {
    const next = queue.shift();
    if (next) { yield next; continue; }
    if (open === 0) return;
    await new Promise<void>((resolve) => { wake = resolve; });
    wake = undefined;
  }
}

async function waitForPod(name: string, stream: AsyncGenerator<Tagged>, record: (type: string, message: string) => void): Promise<void> {
  for await (const { from, ev } of stream) {
    if (from === 'event') {
      if (ev.type === 'ADDED') record(ev.object.type ?? '', ev.object.message ?? '');
      continue;
    }
    if (ev.type === 'ADDED' || ev.type === 'MODIFIED') {
      const status = (ev.object as KubeObject).status;
      if (status?.phase === 'Succeeded') return;
      if (status?.phase === 'Failed') throw new Error(status.message || 'pod failed, pod.Status.Message unknown');
    } else if (ev.type === 'DELETED') {
      throw new Error('recycler pod was deleted');
    } else if (ev.type === 'ERROR') {
      throw new Error('recycler pod watcher failed');
    }
  }
  throw new Error(`recycler pod "${name}" watch channel had been closed`);
}

export async function recycleVolumeByWatchingPodUntilCompletion(
  client: Client, pod: KubeObject, record: (type: string, message: string) => void, signal: AbortSignal,
): Promise<void> {
  const { name, namespace } = pod.metadata as { name: string; namespace: string };
  const pods = client.pods(namespace);
  const podWatch = await pods.watch({ fieldSelector: `metadata.name=${name}`, signal });
  let eventWatch: Watch<CoreEvent>;
  try {
    eventWatch = await client.events(namespace).watch({ fieldSelector: `involvedObject.name=${name}`, signal });
  } catch (e) {
    podWatch.stop();
    throw e;
  }
  try {
    try {
      await pods.create(pod, { signal });
    } catch (e) {
      if (!isAlreadyExists(e)) throw new Error(`unexpected error creating recycler pod:  ${messageOf(e)}`);
      // an earlier recycler, or a forged one: gone before the next try
      try {
        await pods.delete(name, { signal });
      } catch (d) {
        throw new Error(`failed to delete old recycler pod ${namespace}/${name}: ${messageOf(d)}`);
      }
      throw new Error('old recycler pod found, will retry later');
    }
    let failure: unknown;
    try {
      await waitForPod(name, merged(podWatch, eventWatch), record);
    } catch (e) {
      failure = e;
    }
    let deleteFailure: unknown;
    try {
      await pods.delete(name, { signal });
    } catch (e) {
      deleteFailure = e;
    }
    if (failure !== undefined) throw new Error(`failed to recycle volume: ${messageOf(failure)}`);
    if (deleteFailure !== undefined) throw new Error(`failed to delete recycler pod: ${messageOf(deleteFailure)}`);
  } finally {
    podWatch.stop();
    eventWatch.stop();
  }
}
