// The status manager writes a pod's status once: a sync that hands it the same status again while the informer's
// copy of the pod does not show the first write yet must not write it again (upstream's apiStatusVersions).
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { StatusManager } from '../../pkg/kubelet/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { eventually, pod } from './kubelet-support.js';

describe('kubelet status manager', () => {
  let api: TestApiServer;
  let admin: Client;

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
  }, 30_000);

  afterAll(async () => {
    await admin?.close();
    await api?.close();
  });

  it('does not write a status again because the informer lags behind its own write', async () => {
    const created = await admin.pods('default').create(pod('sm-1'));
    const uid = created.metadata!.uid!;
    let informerCopy: KubeObject = created; // stays the pod as created: the informer has not seen the write yet
    const sm = new StatusManager({ client: admin, logger: pino({ level: 'silent' }), getPod: () => informerCopy, canBeDeleted: () => false });
    sm.start();
    const status = { phase: 'Running', hostIP: '192.0.2.1', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    sm.setPodStatus(uid, status);
    const written = await eventually(async () => {
      const p = await admin.pods('default').get('sm-1');
      return p.status?.phase === 'Running' && p;
    }, 10_000, 'status written');
    sm.setPodStatus(uid, { ...status });
    sm.poke(uid);
    await sm.stop();
    expect((await admin.pods('default').get('sm-1')).metadata?.resourceVersion).toBe(written.metadata?.resourceVersion);

    // once the informer shows a status someone else changed, the manager writes its own again
    await admin.pods('default').patch('sm-1', 'merge', { status: { hostIP: '192.0.2.99' } }, { subresource: 'status' });
    informerCopy = await admin.pods('default').get('sm-1');
    const sm2 = new StatusManager({ client: admin, logger: pino({ level: 'silent' }), getPod: () => informerCopy, canBeDeleted: () => false });
    sm2.start();
    sm2.setPodStatus(uid, status);
    await sm2.stop();
    expect((await admin.pods('default').get('sm-1')).status?.hostIP).toBe('192.0.2.1');
  });
});
