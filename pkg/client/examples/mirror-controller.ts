// A complete controller: every ConfigMap labelled mirror=true gets a copy "<name>-mirror" that it owns.
import {
  Client, EventRecorder, RateLimitingQueue, Resources, SharedInformerFactory, finalState, isNotFound, runWorkers,
  splitMetaNamespaceKey, type KubeObject,
} from '../index.js';

const MANAGER = 'mirror-controller';

export async function runMirrorController(client: Client, signal: AbortSignal, workers = 2): Promise<void> {
  const factory = new SharedInformerFactory(client, { resyncPeriodMs: 10 * 60_000 });
  const configMaps = factory.informerFor(Resources.configMaps);
  const cache = configMaps.lister();
  const queue = new RateLimitingQueue<string>();
  const recorder = new EventRecorder({ sink: client.events(), component: MANAGER });

  // Level-based: whatever changed, queue the key of the source ConfigMap and re-read everything in reconcile.
  const enqueue = (obj: KubeObject): void => {
    const owner = obj.metadata?.ownerReferences?.find((r) => r.controller && r.kind === 'ConfigMap');
    queue.add(`${obj.metadata!.namespace}/${owner?.name ?? obj.metadata!.name}`);
  };
  configMaps.addEventHandler({
    onAdd: enqueue,
    onUpdate: (_old, obj) => enqueue(obj),
    onDelete: (obj) => enqueue(finalState(obj)),
  });

  const reconcile = async (key: string): Promise<void> => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const source = cache.get(key);
    const mirrorName = `${name}-mirror`;
    const mirror = cache.namespace(namespace!).get(mirrorName);
    if (source?.metadata?.labels?.mirror !== 'true') {
      if (mirror) await client.configMaps(namespace).delete(mirrorName).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
      return;
    }
    if (mirror && JSON.stringify(mirror.data ?? {}) === JSON.stringify(source.data ?? {})) return;
    await client.configMaps(namespace).apply({
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: {
        name: mirrorName, namespace,
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid: source.metadata.uid!, controller: true }],
      },
      data: source.data ?? {},
    }, { fieldManager: MANAGER, force: true });
    recorder.event(source, 'Normal', mirror ? 'Updated' : 'Mirrored', `mirrored into ${mirrorName}`);
  };

  factory.start(signal);
  if (!(await factory.waitForCacheSync(signal))) return;
  signal.addEventListener('abort', () => queue.shutDown(), { once: true });
  await runWorkers(queue, reconcile, { workers }); // a failed reconcile is retried with per-item backoff
  await factory.shutdown();
  await recorder.flush();
}
