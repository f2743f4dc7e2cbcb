// The WebApp controller: informers only queue the key of the WebApp concerned; reconcile re-reads the caches and
// drives the world toward the WebApp (its Deployment applied server-side, its status reported), so a missed or
// repeated event does no harm. Failures are retried with the queue's per-item backoff.
import type { Logger } from 'pino';
import type { KubeObject } from '../../../../api/types.js';
import { Resources, type Client } from '../../client.js';
import { EventRecorder } from '../../events.js';
import { SharedInformerFactory } from '../../factory.js';
import { finalState, splitMetaNamespaceKey } from '../../store.js';
import { formatTime } from '../../types.js';
import { RateLimitingQueue } from '../../workqueue/rate-limiting.js';
import { runWorkers } from '../../workqueue/workers.js';
import {
  FIELD_MANAGER, READY, WebApps, desiredDeployment, desiredStatus, isUpToDate, sameStatus, type WebApp,
} from './webapp.js';

export interface WebAppControllerOptions {
  workers?: number;
  logger?: Logger;
}

const CONFIG_MAP_INDEX = 'configMap';

export async function runWebAppController(client: Client, signal: AbortSignal, o: WebAppControllerOptions = {}): Promise<void> {
  const log = o.logger;
  const factory = new SharedInformerFactory(client);
  const apps = factory.informerFor<WebApp>(WebApps, {
    indexers: { [CONFIG_MAP_INDEX]: (a) => (a.spec?.configMap ? [`${a.metadata!.namespace!}/${a.spec.configMap}`] : []) },
  });
  const deployments = factory.informerFor(Resources.deployments);
  // Only a ConfigMap's resourceVersion matters here: a metadata-only informer caches no data.
  const configMaps = factory.metadataInformerFor(Resources.configMaps);
  const queue = new RateLimitingQueue<string>();
  const recorder = new EventRecorder({ sink: client.events(), component: FIELD_MANAGER, logger: log });

  const keyOf = (obj: KubeObject): string => `${obj.metadata!.namespace!}/${obj.metadata!.name!}`;
  const enqueueApp = (obj: KubeObject): void => queue.add(keyOf(obj));
  const enqueueOwner = (obj: KubeObject): void => {
    const owner = obj.metadata?.ownerReferences?.find((r) => r.controller && r.kind === WebApps.kind && r.apiVersion === `${WebApps.group}/${WebApps.version}`);
    if (owner) queue.add(`${obj.metadata!.namespace!}/${owner.name}`);
  };
  const enqueueUsers = (obj: KubeObject): void => {
    for (const app of apps.indexer.byIndex(CONFIG_MAP_INDEX, keyOf(obj))) enqueueApp(app);
  };
  apps.addEventHandler({ onAdd: enqueueApp, onUpdate: (_old, obj) => enqueueApp(obj), onDelete: (d) => enqueueApp(finalState(d)) });
  deployments.addEventHandler({ onAdd: enqueueOwner, onUpdate: (_old, obj) => enqueueOwner(obj), onDelete: (d) => enqueueOwner(finalState(d)) });
  configMaps.addEventHandler({ onAdd: enqueueUsers, onUpdate: (_old, obj) => enqueueUsers(obj), onDelete: (d) => enqueueUsers(finalState(d)) });

  const reconcile = async (key: string): Promise<void> => {
    const { namespace } = splitMetaNamespaceKey(key);
    const app = apps.indexer.getByKey(key);
    // Gone or going: the garbage collector removes the Deployment through its ownerReference.
    if (!app || app.metadata?.deletionTimestamp) return;
    const configVersion = app.spec.configMap ? configMaps.indexer.getByKey(`${namespace!}/${app.spec.configMap}`)?.metadata?.resourceVersion : undefined;
    const desired = desiredDeployment(app, configVersion);
    let deployment = deployments.indexer.getByKey(key);
    if (deployment && !deployment.metadata?.ownerReferences?.some((r) => r.uid === app.metadata!.uid && r.controller)) {
      recorder.event(app, 'Warning', 'NotOwned', `Deployment ${key} exists and is not controlled by this WebApp`);
      return;
    }
    if (!isUpToDate(deployment, desired)) {
      const created = !deployment;
      deployment = await client.deployments(namespace).apply(desired, { fieldManager: FIELD_MANAGER, force: true, signal });
      recorder.event(app, 'Normal', created ? 'Created' : 'Updated', `${created ? 'created' : 'updated'} Deployment ${desired.metadata!.name!}`);
      log?.info({ webapp: key, created }, 'applied Deployment');
    }
    const status = desiredStatus(app, deployment, formatTime(Date.now()));
    if (sameStatus(app.status, status)) return;
    await client.resource<WebApp>(WebApps, namespace).applyStatus(
      { apiVersion: `${WebApps.group}/${WebApps.version}`, kind: WebApps.kind, metadata: { name: app.metadata!.name, namespace }, status } as WebApp,
      { fieldManager: FIELD_MANAGER, force: true, signal },
    );
    const ready = status.conditions!.find((c) => c.type === READY)!;
    const wasReady = app.status?.conditions?.find((c) => c.type === READY)?.status === 'True';
    if (ready.status === 'True' && !wasReady) recorder.event(app, 'Normal', 'Ready', ready.message);
  };

  factory.start(signal);
  if (!(await factory.waitForCacheSync(signal))) return;
  if (signal.aborted) queue.shutDown();
  else signal.addEventListener('abort', () => queue.shutDown(), { once: true });
  await runWorkers(queue, reconcile, {
    workers: o.workers ?? 2,
    onError: (err, key) => { if (!signal.aborted) log?.warn({ err, webapp: key }, 'reconcile failed: retrying'); },
  });
  await factory.shutdown();
  await recorder.flush();
}
