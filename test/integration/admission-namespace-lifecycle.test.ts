// NamespaceLifecycle as upstream's: it decides in the mutating phase (so a pod in a terminating namespace is refused
// for that, not for the ServiceAccount it cannot find), and nothing, events included, is created there any more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.close();
});

describe('NamespaceLifecycle', () => {
  it('refuses new content in a terminating namespace first, events too', async () => {
    expect((await s.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tn' } })).status).toBe(201);
    // no namespace controller here: the namespace stays Terminating
    expect((await s.api('DELETE', '/api/v1/namespaces/tn')).status).toBe(200);
    await s.api('GET', '/api/v1/namespaces/tn');
    const pod = await s.api('POST', '/api/v1/namespaces/tn/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(pod.status).toBe(403);
    expect(pod.body.message).toBe('pods "p" is forbidden: unable to create new content in namespace tn because it is being terminated');
    expect(pod.body.details.causes).toEqual([{ reason: 'NamespaceTerminating', message: 'namespace tn is being terminated', field: 'metadata.namespace' }]);
    const event = await s.api('POST', '/api/v1/namespaces/tn/events', {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'x', namespace: 'tn' }, reason: 'Test', message: 'hi', type: 'Normal',
    });
    expect([event.status, event.body.message]).toEqual([403, 'events "e" is forbidden: unable to create new content in namespace tn because it is being terminated']);
    // a permission check in it still answers
    const review = await s.api('POST', '/apis/authorization.k8s.io/v1/namespaces/tn/localsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'tn' }, spec: { user: 'u', resourceAttributes: { namespace: 'tn', verb: 'get', resource: 'pods' } },
    });
    expect(review.status).toBe(201);
  });
});
