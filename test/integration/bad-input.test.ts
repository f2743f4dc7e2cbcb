// Nothing a client sends yields a 500: malformed bodies, patches and headers get a 4xx Status. A sweep puts a value
// of every JSON type at every path of live objects, through POST, PUT, the three patch types and server-side apply
// (dryRun, so nothing changes), and a few cases upstream itself answers with a 500 are checked for their 4xx here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEnvelope } from '../../pkg/apimachinery/protobuf/index.js';
import { ProtoWriter } from '../../pkg/apimachinery/protobuf/wire.js';
import type { KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;

beforeAll(async () => {
  s = await startTestApiServer();
}, 30_000);

afterAll(async () => {
  await s?.close();
});

type Path = (string | number)[];

/** Every path of `v` but the root and managedFields'. */
const pathsOf = (v: unknown, at: Path = [], out: Path[] = []): Path[] => {
  if (at.length) out.push(at);
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) if (k !== 'managedFields') pathsOf(x, [...at, Array.isArray(v) ? Number(k) : k], out);
  }
  return out;
};

const withValueAt = (obj: unknown, path: Path, value: unknown): unknown => {
  const copy = structuredClone(obj) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return copy;
};

/** The merge patch that sets `path` (undefined through a list: merge patches replace lists whole). */
const mergePatchOf = (path: Path, value: unknown): unknown => {
  if (path.some((k) => typeof k === 'number')) return undefined;
  return path.reduceRight<unknown>((inner, k) => ({ [k]: inner }), value);
};

const VALUES: unknown[] = [null, 5, 'x', [], {}, true, -1, 1e20, [{}], ''];

describe('bad input', () => {
  it('type confusion at every path of a pod, a deployment, a service, a job and a node is refused with a 4xx, created, updated, patched or applied', { timeout: 120_000 }, async () => {
    const created = async (path: string, body: unknown): Promise<KubeObject> => {
      const r = await s.api('POST', path, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body as KubeObject;
    };
    const labels = { app: 'bad-input' };
    const container = { name: 'c', image: 'busybox', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: 'b' }] };
    const objects: [string, KubeObject][] = [
      ['/api/v1/namespaces/default/pods', await created('/api/v1/namespaces/default/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u-1' }] },
        spec: { containers: [container], tolerations: [{ key: 'k', operator: 'Exists' }] },
      })],
      ['/apis/apps/v1/namespaces/default/deployments', await created('/apis/apps/v1/namespaces/default/deployments', {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
        spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [container] } } },
      })],
      ['/api/v1/namespaces/default/services', await created('/api/v1/namespaces/default/services', {
        apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] },
      })],
      ['/apis/batch/v1/namespaces/default/jobs', await created('/apis/batch/v1/namespaces/default/jobs', {
        apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' },
        spec: { backoffLimit: 2, podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] }, template: { spec: { restartPolicy: 'Never', containers: [container] } } },
      })],
      ['/api/v1/nodes', await created('/api/v1/nodes', {
        apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { podCIDR: '10.9.0.0/24', podCIDRs: ['10.9.0.0/24'] },
        status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '10.0.0.9' }] },
      })],
    ];
    const failures: string[] = [];
    const send = async (method: string, path: string, body: unknown, contentType: string): Promise<void> => {
      const r = await s.api(method, path, JSON.stringify(body), { 'content-type': contentType });
      if (r.status >= 500) failures.push(`${r.status} ${method} ${path} ${contentType} ${JSON.stringify(body).slice(0, 200)}: ${JSON.stringify(r.body).slice(0, 200)}`);
    };
    let sent = 0;
    for (const [collection, stored] of objects) {
      // what a client creates or applies: no server-set metadata, no status
      const { uid: _u, resourceVersion: _rv, creationTimestamp: _c, generation: _g, managedFields: _m, ...meta } = stored.metadata!;
      const { status: _s, ...fresh } = { ...stored, metadata: meta } as Record<string, unknown>;
      for (const sub of ['', '/status']) {
        const url = `${collection}/${stored.metadata!.name!}${sub}?dryRun=All`;
        const requests: (() => Promise<void>)[] = [];
        for (const path of pathsOf(stored)) {
          for (const value of VALUES) {
            requests.push(() => send('PUT', url, withValueAt(stored, path, value), 'application/json'));
            const merge = mergePatchOf(path, value);
            if (merge !== undefined) {
              requests.push(() => send('PATCH', url, merge, 'application/merge-patch+json'));
              requests.push(() => send('PATCH', url, merge, 'application/strategic-merge-patch+json'));
            }
            requests.push(() => send('PATCH', url, [{ op: 'replace', path: `/${path.join('/')}`, value }], 'application/json-patch+json'));
          }
        }
        for (const path of pathsOf(fresh)) {
          for (const value of VALUES) {
            const body = withValueAt(fresh, path, value);
            if (!sub) requests.push(() => send('POST', `${collection}?dryRun=All`, body, 'application/json'));
            requests.push(() => send('PATCH', `${url}&fieldManager=sweep&force=true`, body, 'application/apply-patch+yaml'));
          }
        }
        sent += requests.length;
        // 16 at a time: the load of a busy client, in a few seconds
        for (let i = 0; i < requests.length; i += 16) await Promise.all(requests.slice(i, i + 16).map((f) => f()));
      }
    }
    expect(sent).toBeGreaterThan(8_000);
    expect(failures).toEqual([]);
  });

  it('strategic merge patches upstream ends in a 500 (missing merge key, unknown $patch, mixed list items) are 400', async () => {
    await s.api('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'smp', finalizers: ['a/b'] } });
    const smp = (path: string, patch: unknown) =>
      s.api('PATCH', path, JSON.stringify(patch), { 'content-type': 'application/strategic-merge-patch+json' });
    const cases: [string, unknown, RegExp][] = [
      ['/api/v1/namespaces/default/pods/p', { spec: { containers: [{ image: 'x' }] } }, /^map: map\[image:x\] does not contain declared merge key: name$/],
      ['/api/v1/namespaces/default/configmaps/smp', { $patch: 'bogus' }, /^Unknown patch type: bogus in map\[\$patch:bogus\]$/],
      ['/api/v1/namespaces/default/configmaps/smp', { metadata: { finalizers: [{}] } }, /^list element types are not identical/],
    ];
    for (const [path, patch, message] of cases) {
      const r = await smp(path, patch);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(r.body.message).toMatch(message);
    }
  });

  it('a body that is not JSON is refused in encoding/json\'s words, as upstream\'s decoder', async () => {
    const cases: [string, string][] = [
      ['notjson', "invalid character 'o' in literal null (expecting 'u')"],
      ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
      ['{"a" 1}', "invalid character '1' after object key"],
    ];
    for (const [body, why] of cases) {
      const r = await s.api('POST', '/api/v1/namespaces/default/configmaps', body, { 'content-type': 'application/json' });
      // upstream's transformDecodeError: the kind wanted, the decoder's error, the body's start (an object's as text)
      const start = body.startsWith('{') ? body : Buffer.from(body).toString('hex');
      expect([r.status, r.body.message]).toEqual([400, `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: ${why} (${start})`]);
    }
    const array = await s.api('PUT', '/api/v1/namespaces/default/configmaps/x', '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]', { 'content-type': 'application/json' });
    expect([array.status, array.body.message]).toEqual([400, 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: '
      + 'json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } '
      + '(5b312c20322c20332c20342c20352c20362c20372c20382c20392c203130 ...)']);
  });

  it('a body of another kind or version than the resource\'s is refused as upstream\'s decoder and handler refuse it', async () => {
    const post = (body: object) => s.api('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify(body), { 'content-type': 'application/json' });
    const secret = await post({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } });
    expect([secret.status, secret.body.message]).toEqual([400, 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion']);
    const unknown = await post({ apiVersion: 'v1', kind: 'Widget', metadata: { name: 'x' } });
    expect([unknown.status, unknown.body.message]).toEqual([400, 'Widget in version "v1" cannot be handled as a ConfigMap: no kind "Widget" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"']);
    const deployment = await post({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } });
    expect([deployment.status, deployment.body.message]).toEqual([400, 'Deployment in version "v1" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion']);
    // another version of the same type converts, and is then refused for its version
    const event = await s.api('POST', '/api/v1/namespaces/default/events', JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'x' } }), { 'content-type': 'application/json' });
    expect([event.status, event.body.message]).toEqual([400, 'the API version in the data (events.k8s.io/v1) does not match the expected API version (v1)']);
  });

  it('a namespace without a name is 422 Invalid (name or generateName required), not a crash on its name label', async () => {
    for (const body of ['{}', '{"apiVersion":"v1","kind":"Namespace"}', '{"apiVersion":"v1","kind":"Namespace","metadata":null}']) {
      const r = await s.api('POST', '/api/v1/namespaces', body);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.details.causes).toContainEqual(expect.objectContaining({ field: 'metadata.name', reason: 'FieldValueRequired' }));
    }
  });

  it('an update whose body has no name, or another one, is 400 as upstream\'s checkName says (the URL\'s name is not taken)', async () => {
    expect((await s.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'named' }, data: { a: '1' } })).status).toBe(201);
    for (const [metadata, shown] of [[{}, ''], [{ name: '' }, ''], [{ name: 'other' }, 'other']] as const) {
      const r = await s.api('PUT', '/api/v1/namespaces/default/configmaps/named', { metadata, data: { a: '2' } });
      expect([r.status, r.body.message]).toEqual([400, `the name of the object (${shown}) does not match the name on the URL (named)`]);
    }
    expect((await s.api('PUT', '/api/v1/namespaces/default/configmaps/named', { metadata: { name: 'named' }, data: { a: '2' } })).status).toBe(200);
  });

  it('DeleteOptions of the wrong JSON types are 400, for one object and a collection (upstream: 500; was a TypeError here)', async () => {
    expect((await s.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'deletable' } })).status).toBe(201);
    for (const path of ['/api/v1/namespaces/default/configmaps/deletable', '/api/v1/namespaces/default/configmaps']) {
      for (const body of [{ dryRun: 0 }, { dryRun: 'All' }, { gracePeriodSeconds: 'soon' }, { preconditions: [] }]) {
        const r = await s.api('DELETE', path, body);
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.message).toMatch(/^DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal /);
      }
    }
    expect((await s.api('GET', '/api/v1/namespaces/default/configmaps/deletable')).status).toBe(200);
  });

  it('impersonating a group without a user is 400 (upstream: 500)', async () => {
    const r = await s.api('GET', '/api/v1/namespaces', undefined, { 'impersonate-group': 'system:masters' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^requested \[.*Group system:masters.*\] without impersonating a user$/);
  });

  it('a path no resource answers is 404 as upstream answers it (its REST router under /api, /version or a built-in group, else its not-found handler)', async () => {
    // go-restful's service error handler: NewGenericServerResponse, no causes, empty details
    const router = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', message: 'the server could not find the requested resource', details: {}, code: 404 };
    for (const path of ['/api/v1/foo', '/apis/apps/v1/namespaces/default/foo/x', '/api/v1/namespaces/default/configmaps/x/foo', '/api/v1/namespaces/default/nodes',
      // an empty segment where the router wants a resource (upstream's splitPath keeps it), or a namespace for a cluster-scoped one
      '/apis/apps/v1//deployments', '/api/v1//configmaps', '/api/v1/namespaces/default//configmaps', '/api/v1/namespaces//nodes', '/api/v1/namespaces/default/namespaces',
      // a version the group does not serve, or a path under a web service's root that none of its routes takes
      '/api/v2', '/api//v1/pods', '/apis/apps/v9', '/apis/apps/v9/deployments', '/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions', '/version/x']) {
      const r = await s.api('GET', path);
      expect([path, r.status, r.body]).toEqual([path, 404, router]);
    }
    // a method none of the routes of such a path takes: the router's 405, where a GET is served
    for (const [method, path] of [['POST', '/version'], ['DELETE', '/api'], ['PATCH', '/api/v1'], ['POST', '/apis/apps/v1/']]) {
      const r = await s.api(method!, path!, {});
      expect([method, path, r.status, r.body]).toEqual([method, path, 405, { ...router, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', code: 405 }]);
    }
    // HEAD too, go-restful routing exactly the methods declared: on discovery, resources, an object, a subresource
    for (const path of ['/version', '/api', '/api/v1', '/apis/apps/v1', '/api/v1/namespaces', '/api/v1/namespaces/default', '/api/v1/namespaces/default/status']) {
      expect([path, (await s.api('HEAD', path)).status]).toEqual([path, 405]);
    }
    // the aggregator's /apis and /apis/<group> handlers, and the health checks, are on the plain mux: any method is a GET
    for (const [method, path] of [['PUT', '/apis/'], ['POST', '/apis/apps'], ['HEAD', '/apis'], ['DELETE', '/apis/apps/'], ['POST', '/healthz'], ['HEAD', '/readyz/ping']]) {
      expect([method, path, (await s.api(method!, path!)).status]).toEqual([method, path, 200]);
    }
    expect(((await s.api('POST', '/apis/apps', {})).body as KubeObject).kind).toBe('APIGroup');
    expect((await s.api('POST', '/apis/apps/v9', {})).body).toEqual(router);
    // Go's http.NotFound: an unknown group, a non-API path
    for (const path of ['/apis/nope.example.com/v1/things', '/apis/nope.example.com/v1/namespaces/default/things/x', '/nope', '/apis/nope.example.com', '/apis//apps/v1', '/versions']) {
      const r = await s.api('GET', path);
      expect([path, r.status, r.headers['content-type'], r.body]).toEqual([path, 404, 'text/plain; charset=utf-8', '404 page not found\n']);
    }
    // an empty namespace or name fills the router's parameter: the namespace is all of them, a name must be given
    const all = await s.api('GET', '/api/v1/namespaces//configmaps');
    expect([all.status, (all.body as { items: KubeObject[] }).items.some((c) => c.metadata?.namespace === 'kube-system')]).toEqual([200, true]);
    const unnamed = await s.api('GET', '/api/v1/namespaces/default/pods//status');
    expect([unnamed.status, (unnamed.body as KubeObject).message]).toEqual([400, 'name must be provided']);
    expect((await s.api('POST', '/api/v1/namespaces/default/pods//status')).status).toBe(405);
    // kubectl reads either as the generic NotFound
    expect((await s.kubectl('get', '--raw', '/apis/nope.example.com/v1/things')).stderr).toContain('Error from server (NotFound): the server could not find the requested resource');
  });
});

describe('bodies that are not stored objects', () => {
  it('an Eviction, a TokenReview, a SubjectAccessReview or a TokenRequest of the wrong JSON types is 400, as upstream\'s decoder', async () => {
    await s.api('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'evictee' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const cases: [string, unknown, string][] = [
      ['/api/v1/namespaces/default/pods/evictee/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', deleteOptions: { gracePeriodSeconds: 'x' } },
        'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field DeleteOptions.deleteOptions.gracePeriodSeconds of type int64'],
      ['/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: 'x', audiences: 'y' } },
        'TokenReview in version "v1" cannot be handled as a TokenReview: json: cannot unmarshal string into Go struct field TokenReviewSpec.spec.audiences of type []string'],
      ['/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: { user: 'a', resourceAttributes: { verb: 5 } } },
        'SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string'],
      ['/api/v1/namespaces/default/serviceaccounts/default/token', { spec: { expirationSeconds: 'x' } },
        'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64'],
      ['/api/v1/namespaces/default/pods/evictee/binding', '"x"', 'the body of a Binding must be an object'],
    ];
    for (const [path, body, message] of cases) {
      const r = await s.api('POST', path, body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.message).toBe(message);
    }
    // as kubectl sends them: a null creationTimestamp is Go's zero time, no type error
    const evicted = await s.api('POST', '/api/v1/namespaces/default/pods/evictee/eviction?dryRun=All',
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evictee', namespace: 'default', creationTimestamp: null } });
    expect(evicted.status, JSON.stringify(evicted.body)).toBe(201);
  });
});

describe('deeply nested bodies', () => {
  it('JSON, a merge patch and an apply patch nested thousands of levels are 400 and the server goes on', async () => {
    const deepJson = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    const deepYaml = Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i + 2)}a:`).join('\n');
    const requests: [string, string, string, string][] = [
      ['POST', '/api/v1/namespaces/default/configmaps', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep","annotations":${deepJson}}}`, 'application/json'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt', `{"metadata":{"labels":${deepJson}}}`, 'application/merge-patch+json'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/deep?fieldManager=t', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n${deepYaml}\n`, 'application/apply-patch+yaml'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/deep?fieldManager=t', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${deepJson}}`, 'application/apply-patch+yaml'],
    ];
    for (const [method, path, body, contentType] of requests) {
      const r = await s.api(method, path, body, { 'content-type': contentType });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      // a create's body says what it must be, and how it starts (upstream's transformDecodeError)
      expect(r.body.message).toMatch(method === 'POST'
        ? /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: exceeded max depth of 500 \(\{"apiVersion":"v1","kind":"Con \.\.\.\)$/
        : /exceeded max depth of 500$/);
    }
    // protobuf: raw JSON (a ControllerRevision's data) nested as deep
    const revision = new ProtoWriter()
      .message(1, new ProtoWriter().string(1, 'deep'))
      .message(2, new ProtoWriter().bytes(1, Buffer.from(deepJson)))
      .varint(3, 1)
      .finish();
    const pb = await s.api('POST', '/apis/apps/v1/namespaces/default/controllerrevisions', writeEnvelope('apps/v1', 'ControllerRevision', revision), { 'content-type': 'application/vnd.kubernetes.protobuf' });
    expect(pb.status, JSON.stringify(pb.body)).toBe(400);
    expect(pb.body.message).toMatch(/exceeded max depth of 500$/);
    expect((await s.api('GET', '/api/v1/namespaces/default')).status).toBe(200);
  });

  it('an Eviction, a Binding or a Scale naming another object or namespace than the URL is 400, and nothing happens', async () => {
    await s.api('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'elsewhere' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'scaled' }, spec: {
      selector: { matchLabels: { app: 'scaled' } }, template: { metadata: { labels: { app: 'scaled' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } });
    const ns = 'the namespace of the provided object does not match the namespace sent on the request';
    const pod = '/api/v1/namespaces/default/pods/elsewhere';
    const scale = '/apis/apps/v1/namespaces/default/deployments/scaled/scale';
    const cases: [string, string, unknown, string, Record<string, string>?][] = [
      ['POST', `${pod}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'elsewhere', namespace: 'kube-system' } }, ns],
      ['POST', `${pod}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'elsewhere', namespace: 'other' }, target: { kind: 'Node', name: 'n1' } }, ns],
      ['POST', `${pod}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'other' }, target: { kind: 'Node', name: 'n1' } }, 'name in URL does not match name in Binding object'],
      ['POST', `${pod}/binding`, { apiVersion: 'v1', kind: 'Binding', target: { kind: 'Node', name: 'n1' } }, 'name in URL does not match name in Binding object'],
      ['PUT', scale, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'zz' }, spec: { replicas: 2 } }, 'the name of the object (zz) does not match the name on the URL (scaled)'],
      ['PUT', scale, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'scaled', namespace: 'other' }, spec: { replicas: 2 } }, ns],
      ['PATCH', scale, { metadata: { name: 'zz' }, spec: { replicas: 2 } }, 'the name of the object (zz) does not match the name on the URL (scaled)', { 'content-type': 'application/merge-patch+json' }],
    ];
    for (const [method, path, body, message, headers] of cases) {
      const r = await s.api(method, path, body, headers);
      expect([r.status, r.body.message], `${method} ${path} ${JSON.stringify(body)}`).toEqual([400, message]);
    }
    const stored = (await s.api('GET', pod)).body;
    expect([stored.spec.nodeName, stored.metadata.deletionTimestamp]).toEqual([undefined, undefined]);
    expect((await s.api('GET', scale)).body.spec.replicas).toBe(1);
  });

  it('a GET\'s options as upstream\'s GetResource and cacher read them: export refused, a resourceVersion awaited', async () => {
    const ns = '/api/v1/namespaces/default';
    const refused = await s.api('GET', `${ns}?export=true`);
    expect([refused.status, refused.body.message]).toEqual([400, 'the export parameter, deprecated since v1.14, is no longer supported']);
    expect((await s.api('GET', `${ns}?export=False`)).status).toBe(200);
    const current = (await s.api('GET', ns)).body.metadata.resourceVersion as string;
    expect((await s.api('GET', `${ns}?resourceVersion=${current}`)).status).toBe(200);
    expect((await s.api('GET', `${ns}?resourceVersion=0`)).status).toBe(200);
    const ahead = await s.api('GET', `${ns}?resourceVersion=${Number.MAX_SAFE_INTEGER}`);
    expect([ahead.status, ahead.body.reason, ahead.body.details.causes]).toEqual([504, 'Timeout', [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]]);
    // upstream's cacher passes the parse error on as a 500; a client's bad value is its 400 here
    expect([(await s.api('GET', `${ns}?resourceVersion=abc`)).status]).toEqual([400]);
  });
});
