// What a DELETE does and answers by default, per kind, as upstream's stores: batch/v1 Jobs and v1
// ReplicationControllers orphan their dependents unless the client names a policy (their strategies'
// DefaultGarbageCollectionPolicy), a Job's REST warning of it on DELETE and DELETECOLLECTION; the stores with
// ReturnDeletedObject answer the object deleted, the others a Success Status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, warningsOf, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  // without the protection finalizers on volumes and claims, whose deletion would only mark them; with the
  // PodSecurityPolicies of policy/v1beta1
  s = await startTestApiServer({
    storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [], disableAdmissionPlugins: ['TaintNodesByCondition', 'StorageObjectInUseProtection'],
    runtimeConfig: new Map([['policy/v1beta1', 'true']]),
  });
});
afterAll(async () => { await s?.close(); });

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const RCS = '/api/v1/namespaces/default/replicationcontrollers';
const PODS_KEPT = 'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';
const template = (restartPolicy: string) => ({ metadata: { labels: { app: 'a' } }, spec: { restartPolicy, containers: [{ name: 'c', image: 'busybox' }] } });
const job = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name, labels }, spec: { template: template('Never') } });

describe('deleting a Job', () => {
  it('without a policy: orphans its pods (the orphan finalizer) and warns that they are kept', async () => {
    expect((await s.api('POST', JOBS, job('plain'))).status).toBe(201);
    // the Python client's delete_namespaced_job sends a DeleteOptions body without a policy
    const r = await s.api('DELETE', `${JOBS}/plain`, { apiVersion: 'v1', kind: 'DeleteOptions' });
    expect(r.status).toBe(200);
    expect(warningsOf(r.headers)).toEqual([PODS_KEPT]);
    expect(r.body.metadata).toMatchObject({ name: 'plain', finalizers: ['orphan'] });
    expect(r.body.metadata.deletionTimestamp).toBeDefined();
  });

  it('with a policy or orphanDependents: no warning', async () => {
    for (const [name, query] of [['bg', 'propagationPolicy=Background'], ['fg', 'propagationPolicy=Foreground'], ['orph', 'propagationPolicy=Orphan'], ['od', 'orphanDependents=false']]) {
      expect((await s.api('POST', JOBS, job(name!))).status).toBe(201);
      const r = await s.api('DELETE', `${JOBS}/${name}?${query}`);
      expect([r.status, warningsOf(r.headers)]).toEqual([200, []]);
    }
  });

  it('warns before anything is looked up, as upstream\'s REST.Delete: a missing Job too', async () => {
    const r = await s.api('DELETE', `${JOBS}/missing`);
    expect([r.status, warningsOf(r.headers)]).toEqual([404, [PODS_KEPT]]);
  });

  it('a collection without a policy is warned of once, and orphans each', async () => {
    for (const name of ['c1', 'c2']) expect((await s.api('POST', JOBS, job(name, { set: 'c' }))).status).toBe(201);
    const r = await s.api('DELETE', `${JOBS}?labelSelector=set%3Dc`);
    expect([r.status, warningsOf(r.headers)]).toEqual([200, [PODS_KEPT]]);
    expect(r.body.items.map((j: { metadata: { finalizers?: string[] } }) => j.metadata.finalizers)).toEqual([['orphan'], ['orphan']]);
    const background = await s.api('DELETE', `${JOBS}?labelSelector=set%3Dnone&propagationPolicy=Background`);
    expect([background.status, warningsOf(background.headers)]).toEqual([200, []]);
  });
});

describe('deleting a ReplicationController', () => {
  it('without a policy: orphans its pods, without a warning', async () => {
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { selector: { app: 'a' }, template: template('Always') } };
    expect((await s.api('POST', RCS, rc)).status).toBe(201);
    const r = await s.api('DELETE', `${RCS}/rc`);
    expect([r.status, warningsOf(r.headers)]).toEqual([200, []]);
    expect(r.body.metadata.finalizers).toEqual(['orphan']);
  });
});

describe('what a DELETE answers', () => {
  // upstream's stores with ReturnDeletedObject: the object deleted; every other store a Success Status
  const returningTheObject: [string, Record<string, unknown>][] = [
    ['/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } }],
    ['/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } }],
    ['/api/v1/namespaces/default/podtemplates', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template: template('Always') }],
    ['/api/v1/namespaces/default/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'rq' }, spec: { hard: { pods: '10' } } }],
    ['/api/v1/namespaces/default/persistentvolumeclaims', {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }],
    ['/api/v1/persistentvolumes', {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' } },
    }],
    ['/apis/storage.k8s.io/v1/storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'example.com/p' }],
    ['/apis/storage.k8s.io/v1/csidrivers', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} }],
    ['/apis/storage.k8s.io/v1/csinodes', { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'n1' }, spec: { drivers: [] } }],
    ['/apis/storage.k8s.io/v1/volumeattachments', {
      apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va' },
      spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } },
    }],
    ['/apis/policy/v1beta1/podsecuritypolicies', {
      apiVersion: 'policy/v1beta1', kind: 'PodSecurityPolicy', metadata: { name: 'psp' },
      spec: { seLinux: { rule: 'RunAsAny' }, runAsUser: { rule: 'RunAsAny' }, supplementalGroups: { rule: 'RunAsAny' }, fsGroup: { rule: 'RunAsAny' } },
    }],
  ];

  for (const [path, body] of returningTheObject) {
    it(`answers the deleted ${body.kind as string}, as upstream's store (ReturnDeletedObject)`, async () => {
      const name = (body.metadata as { name: string }).name;
      const created = await s.api('POST', path, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // no finalizer holds it: the answer is not merely the object as marked
      expect(created.body.metadata.finalizers).toBeUndefined();
      const r = await s.api('DELETE', `${path}/${name}`);
      expect([r.status, r.body.kind, r.body.metadata?.name]).toEqual([200, body.kind, name]);
      expect((await s.api('GET', `${path}/${name}`)).status).toBe(404);
    });
  }

  it('answers 202 for an object kept (a finalizer) whose client asked orphanDependents=false, as DeleteResource', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    expect((await s.api('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status).toBe(201);
    const r = await s.api('DELETE', `${cms}/held`, { apiVersion: 'v1', kind: 'DeleteOptions', orphanDependents: false });
    expect([r.status, r.body.kind, r.body.metadata?.finalizers]).toEqual([202, 'ConfigMap', ['example.com/hold']]);
    // kept without orphanDependents=false: 200
    expect((await s.api('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held2', finalizers: ['example.com/hold'] } })).status).toBe(201);
    expect((await s.api('DELETE', `${cms}/held2?propagationPolicy=Background`)).status).toBe(200);
    // deleted at once with it: 200 and a Status
    expect((await s.api('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gone' } })).status).toBe(201);
    const gone = await s.api('DELETE', `${cms}/gone`, { apiVersion: 'v1', kind: 'DeleteOptions', orphanDependents: false });
    expect([gone.status, gone.body.kind]).toEqual([200, 'Status']);
  });

  it('answers a Success Status for the others (a ConfigMap)', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    expect((await s.api('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } })).status).toBe(201);
    const r = await s.api('DELETE', `${cms}/cm`);
    expect([r.status, r.body.kind, r.body.status, r.body.details?.name]).toEqual([200, 'Status', 'Success', 'cm']);
  });
});
