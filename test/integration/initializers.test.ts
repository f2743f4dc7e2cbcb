// The alpha Initializers feature (--feature-gates=Initializers=true) with the real kubectl and an initializer
// controller written here over raw HTTPS: new objects wait, hidden from list and watch, until every initializer has
// removed itself; a create waits and returns the initialized object; only the head of the list may act.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { kubectl, startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { openWatch, type WatchStream } from '../support/watch-stream.js';
import { certificateUser, eventually, type TestUser } from './authz-support.js';

const LABELER = 'labeler.example.com';
const AUDITOR = 'auditor.example.com';
let s: TestApiServer;
let bob: TestUser;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', featureGates: { Initializers: true } });
  bob = await certificateUser(s, 'bob', []);
  await s.kubectl('create', 'rolebinding', 'bob-edit', '--clusterrole=edit', '--user=bob', '-n', 'default');
});
afterAll(async () => {
  await bob?.close();
  await s?.close();
});

const config = (name: string, initializers: string[], resources = ['configmaps']) => `apiVersion: admissionregistration.k8s.io/v1alpha1
kind: InitializerConfiguration
metadata:
  name: ${name}
initializers:
${initializers.map((n) => `- name: ${n}\n  rules:\n  - apiGroups: [""]\n    apiVersions: [v1]\n    resources: [${resources.join(', ')}]\n`).join('')}`;
const pendingOf = (o: KubeObject): string[] => ((o.metadata as any)?.initializers?.pending ?? []).map((p: { name: string }) => p.name);
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });

/**
 * An initializer controller: watches configmaps with ?includeUninitialized=true and, for each object whose first
 * pending initializer is `name`, writes `act(object)` back (a PUT of the whole object).
 */
async function runInitializer(name: string, act: (o: KubeObject) => KubeObject): Promise<{ stop(): void }> {
  const w: WatchStream = await openWatch(`${s.url}/api/v1/configmaps?watch=1&includeUninitialized=true`, s.agent);
  let seen = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || seen === w.events.length) return;
    busy = true;
    void (async () => {
      while (seen < w.events.length) {
        const ev = w.events[seen++]!;
        if (ev.type === 'DELETED' || pendingOf(ev.object)[0] !== name) continue;
        const o = ev.object as KubeObject;
        await s.api('PUT', `/api/v1/namespaces/${o.metadata!.namespace}/configmaps/${o.metadata!.name}`, act(structuredClone(o)));
      }
      busy = false;
    })();
  }, 10);
  return { stop: () => { clearInterval(timer); w.close(); } };
}
/** What an initializer writes when it is done: its own entry removed from the head, something of its own added. */
const initialize = (label: string) => (o: KubeObject): KubeObject => {
  const meta = o.metadata as any;
  meta.labels = { ...meta.labels, [label]: 'yes' };
  meta.initializers.pending.shift();
  if (meta.initializers.pending.length === 0) delete meta.initializers;
  return o;
};

describe('Initializers', () => {
  it('serves InitializerConfigurations and stamps new objects with the matching initializers', async () => {
    const apply = await s.kubectlWithInput(config('labels', [LABELER]), 'apply', '-f', '-');
    expect(apply.stderr).toBe('');
    const r = await s.api('POST', '/api/v1/namespaces/default/configmaps?includeUninitialized=true', cm('raw'));
    expect(r.status).toBe(201);
    expect(pendingOf(r.body)).toEqual([LABELER]);
    // OpenAPI publishes the field, so kubectl explain knows it.
    expect((await s.kubectl('explain', 'configmap.metadata.initializers')).stdout).toContain('pending\t<[]Initializer> -required-');
    // Other resources are not initialized.
    expect((await s.api('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's' } })).status).toBe(201);
  });

  it('hides an uninitialized object from list and watch; kubectl create waits and gets the initialized object', async () => {
    const watch = await openWatch(`${s.url}/api/v1/namespaces/default/configmaps?watch=1`, s.agent);
    const creating = kubectl(s.kubeconfig, ['create', 'configmap', 'web', '--from-literal=a=b', '-o', 'json']);
    await eventually(async () => (await s.api('GET', '/api/v1/namespaces/default/configmaps?includeUninitialized=true')).body.items.some((o: KubeObject) => o.metadata!.name === 'web'));
    const listed = await s.kubectl('get', 'configmaps', '-o', 'name');
    expect(listed.stdout).not.toContain('configmap/web');
    expect(watch.events.filter((e) => e.object.metadata?.name === 'web')).toEqual([]);

    const controller = await runInitializer(LABELER, initialize('labeled'));
    try {
      const created = await creating;
      expect(created.stderr).toBe('');
      const obj = JSON.parse(created.stdout);
      expect(obj.metadata.labels).toEqual({ labeled: 'yes' });
      expect(obj.metadata.initializers).toBeUndefined();
      await watch.until((evs) => evs.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'web'), 10_000, 'web ADDED');
      expect(watch.events.filter((e) => e.object.metadata?.name === 'web').map((e) => e.type)).toEqual(['ADDED']);
      expect((await s.kubectl('get', 'configmaps', '-o', 'name')).stdout).toContain('configmap/web');
    } finally {
      controller.stop();
      watch.close();
    }
  });

  it('lets only the head of the list act, refuses initializers on initialized objects, and needs the initialize verb', async () => {
    await s.kubectlWithInput(config('labels', [LABELER, AUDITOR]), 'apply', '-f', '-');
    const made = await s.api('POST', '/api/v1/namespaces/default/configmaps?includeUninitialized=true', cm('two'));
    expect(pendingOf(made.body)).toEqual([LABELER, AUDITOR]);
    const path = '/api/v1/namespaces/default/configmaps/two';
    const skipHead = structuredClone(made.body);
    skipHead.metadata.initializers.pending.splice(1, 1);
    const wrong = await s.api('PUT', path, skipHead);
    expect([wrong.status, wrong.body.reason]).toEqual([422, 'Invalid']);
    expect(wrong.body.message).toContain(`metadata.initializers.pending: Invalid value: "null": only the first pending initializer (${LABELER}) may be removed`);

    const asBob = await bob.api('PUT', path, initialize('x')(structuredClone(made.body)));
    expect([asBob.status, asBob.body.message]).toEqual([403, 'configmaps "two" is forbidden: update to uninitialized resource denied']);

    const head = await s.api('PUT', path, initialize('x')(structuredClone(made.body)));
    expect([head.status, pendingOf(head.body)]).toEqual([200, [AUDITOR]]);
    const last = await s.api('PUT', path, initialize('y')(structuredClone(head.body)));
    expect([last.status, last.body.metadata.initializers]).toEqual([200, undefined]);
    const again = await s.api('PUT', path, { ...last.body, metadata: { ...last.body.metadata, initializers: { pending: [{ name: AUDITOR }] } } });
    expect(again.status).toBe(422);
    expect(again.body.message).toContain('metadata.initializers: Invalid value: "null": field is immutable once initialization has completed');
    // Bringing one's own initializers is for those who may initialize.
    const own = await bob.api('POST', '/api/v1/namespaces/default/configmaps', { ...cm('own'), metadata: { name: 'own', initializers: { pending: [] } } });
    expect([own.status, own.body.message]).toEqual([403, 'configmaps "own" is forbidden: create with initializers denied']);
    const skip = await s.api('POST', '/api/v1/namespaces/default/configmaps', { ...cm('own'), metadata: { name: 'own', initializers: { pending: [] } } });
    expect([skip.status, skip.body.metadata.initializers]).toEqual([201, undefined]);
  });

  it('fails a waiting create with the result an initializer sets, and deletes the object', async () => {
    await s.kubectlWithInput(config('labels', [LABELER]), 'apply', '-f', '-');
    const controller = await runInitializer(LABELER, (o) => {
      (o.metadata as any).initializers.result = { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 403, reason: 'Forbidden', message: 'no such configmaps here' };
      return o;
    });
    try {
      const r = await s.api('POST', '/api/v1/namespaces/default/configmaps', cm('doomed'));
      expect([r.status, r.body.reason, r.body.message]).toEqual([403, 'Forbidden', 'no such configmaps here']);
      expect((await s.api('GET', '/api/v1/namespaces/default/configmaps/doomed')).status).toBe(404);
    } finally {
      controller.stop();
    }
  });

  it('times a waiting create out when no initializer acts', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/default/configmaps?timeout=1s', cm('slow'));
    // the request's deadline (its timeout parameter) answers first, in today's upstream words
    expect([r.status, r.body.reason, r.body.message]).toEqual([504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded']);
    // The object stays, uninitialized, for its initializer to finish later.
    expect(pendingOf((await s.api('GET', '/api/v1/namespaces/default/configmaps/slow')).body)).toEqual([LABELER]);
  });
});

describe('Initializers on custom resources', () => {
  it('stamps, hides and releases custom objects too', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    };
    expect((await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const path = '/apis/example.com/v1/namespaces/default/widgets';
    await eventually(async () => (await s.api('GET', path)).status === 200);
    await s.kubectlWithInput(config('widgets', [LABELER, AUDITOR]).replace(/apiGroups: \[""\]\n    apiVersions: \[v1\]\n    resources: \[configmaps\]/g, 'apiGroups: [example.com]\n    apiVersions: ["*"]\n    resources: [widgets]'), 'apply', '-f', '-');
    const made = await s.api('POST', `${path}?includeUninitialized=true`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
    expect([made.status, pendingOf(made.body)]).toEqual([201, [LABELER, AUDITOR]]);
    expect((await s.kubectl('get', 'widgets', '-o', 'name')).stdout).toBe('');
    const head = await s.api('PUT', `${path}/w`, initialize('a')(structuredClone(made.body)));
    expect([head.status, pendingOf(head.body)]).toEqual([200, [AUDITOR]]);
    const done = await s.api('PUT', `${path}/w`, initialize('b')(structuredClone(head.body)));
    expect([done.status, done.body.metadata.labels]).toEqual([200, { a: 'yes', b: 'yes' }]);
    expect((await s.kubectl('get', 'widgets', '-o', 'name')).stdout).toBe('widget.example.com/w\n');
  });
});

describe('Initializers gate off', () => {
  it('serves no v1alpha1 group and drops metadata.initializers as an unknown field', async () => {
    const off = await startTestApiServer({ storageBackend: 'memory' });
    try {
      expect((await off.api('GET', '/apis/admissionregistration.k8s.io/v1alpha1')).status).toBe(404);
      const r = await off.api('POST', '/api/v1/namespaces/default/configmaps', { ...cm('plain'), metadata: { name: 'plain', initializers: { pending: [{ name: LABELER }] } } });
      expect([r.status, r.body.metadata.initializers]).toEqual([201, undefined]);
    } finally {
      await off.close();
    }
  });
});
