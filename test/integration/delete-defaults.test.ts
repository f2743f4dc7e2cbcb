// What a DELETE does and answers by default, per kind, as upstream's stores: batch/v1 Jobs and v1
// ReplicationControllers orphan their dependents unless the client names a policy (their strategies'
// DefaultGarbageCollectionPolicy), a Job's REST warning of it on DELETE and DELETECOLLECTION.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, warningsOf, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
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
