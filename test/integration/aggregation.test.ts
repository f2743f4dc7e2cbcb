// API aggregation with the real kubectl: the test runs a tiny extension apiserver (HTTPS, wardle.example.com/v1alpha1
// flunders) that believes only the front-proxy client certificate, registers it with a Service, its Endpoints and an
// APIService, and then reads flunders through mini-kube: availability, discovery, proxying with the user's identity,
// authorization by RBAC before the proxy, a watch streamed as it comes, upgrade requests spliced through, its OpenAPI
// v2 merged into ours, and no proxying once the APIService is gone.
import { execFile, execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { ApiregistrationV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, ensureFrontProxyPki, issueCertificate } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const GV = 'wardle.example.com/v1alpha1';
const FLUNDERS = `/apis/${GV}/namespaces/default/flunders`;

let s: TestApiServer;
let ext: Server;
let extPort = 0;
let caBundle = '';
let cacheDir = '';
const seen: { path: string; user?: string; groups?: string | string[]; cn?: string }[] = [];
let releaseWatch: (() => void) | undefined;

const flunder = (name: string) => ({ apiVersion: GV, kind: 'Flunder', metadata: { name, namespace: 'default', creationTimestamp: '2024-01-01T00:00:00Z' }, spec: {} });

const FLUNDER_OPENAPI = {
  openapi: '3.0.0', info: { title: 'wardle', version: 'v1alpha1' },
  // kubectl explain finds the kind through the GVK of the resource's operations.
  paths: { [`/apis/${GV}/namespaces/{namespace}/flunders`]: { get: { 'x-kubernetes-group-version-kind': { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' } } } },
  components: {
    schemas: {
      'com.example.wardle.v1alpha1.Flunder': {
        type: 'object', description: 'A flunder, served by the wardle extension apiserver.',
        properties: {
          apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' },
          spec: { type: 'object', description: 'What the flunder should be.', properties: { reference: { type: 'string', description: 'The flunder this one refers to.' } } },
        },
        'x-kubernetes-group-version-kind': [{ group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' }],
      },
    },
  },
};

// Its OpenAPI v2: a path of its own, its kind, and a Status unlike ours (renamed when merged, as upstream).
const STATUS_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const FLUNDER_SWAGGER = {
  swagger: '2.0', info: { title: 'wardle', version: 'v1alpha1' },
  paths: {
    [`/apis/${GV}/namespaces/{namespace}/flunders`]: {
      get: { operationId: 'listWardleFlunders', responses: { 200: { schema: { $ref: '#/definitions/com.example.wardle.v1alpha1.Flunder' } }, 401: { schema: { $ref: `#/definitions/${STATUS_DEF}` } } } },
    },
    '/api/v1/namespaces': { get: { operationId: 'wardleNamespaces' } },
  },
  definitions: {
    'com.example.wardle.v1alpha1.Flunder': { type: 'object', description: 'A flunder (v2).', 'x-kubernetes-group-version-kind': [{ group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' }] },
    [STATUS_DEF]: { type: 'object', description: 'wardle\'s own Status.' },
  },
};

function serve(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket as TLSSocket;
  const cn = socket.authorized ? String(socket.getPeerCertificate().subject?.CN) : undefined;
  const [path = '', query = ''] = (req.url ?? '').split('?');
  seen.push({ path, user: req.headers['x-remote-user'] as string | undefined, groups: req.headers['x-remote-group'], cn });
  const json = (code: number, body: unknown): void => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  // As a real extension apiserver: only the front proxy may say who the user is.
  if (cn !== 'front-proxy-client' || !req.headers['x-remote-user']) return json(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 });
  if (path === `/apis/${GV}`) {
    return json(200, {
      kind: 'APIResourceList', apiVersion: 'v1', groupVersion: GV,
      resources: [
        { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['create', 'delete', 'get', 'list', 'watch'], shortNames: ['fl'] },
        { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get', 'update'] },
      ],
    });
  }
  if (path === '/openapi/v2') return json(200, FLUNDER_SWAGGER);
  if (path === '/openapi/v3') return json(200, { paths: { [`apis/${GV}`]: { serverRelativeURL: `/openapi/v3/apis/${GV}?hash=ABC` } } });
  if (path === `/openapi/v3/apis/${GV}`) return json(200, FLUNDER_OPENAPI);
  if (path === FLUNDERS && /(^|&)watch=(1|true)/.test(query)) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${JSON.stringify({ type: 'ADDED', object: flunder('first') })}\n`);
    releaseWatch = () => res.end(`${JSON.stringify({ type: 'ADDED', object: flunder('second') })}\n`);
    return;
  }
  if (path === FLUNDERS) return json(200, { kind: 'FlunderList', apiVersion: GV, metadata: { resourceVersion: '1' }, items: [flunder('my-flunder')] });
  if (path === `${FLUNDERS}/my-flunder`) return json(200, flunder('my-flunder'));
  return json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' });
}

const kubectl = (...args: string[]) => s.kubectl('--cache-dir', cacheDir, ...args);

const hasPythonClient = (() => {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import kubernetes'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const PYTHON = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
a = client.ApiregistrationV1Api().read_api_service('v1alpha1.wardle.example.com')
c = a.status.conditions[0]
f = client.CustomObjectsApi().list_namespaced_custom_object('wardle.example.com', 'v1alpha1', 'default', 'flunders')
print(json.dumps({'service': a.spec.service.name, 'port': a.spec.service.port, 'available': c.status, 'reason': c.reason,
  'transition': type(c.last_transition_time).__name__, 'flunders': [x['metadata']['name'] for x in f['items']]}))
`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const availability = async (): Promise<{ status: string; reason: string; message: string } | undefined> =>
  (await s.api('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com')).body.status?.conditions?.find((c: { type: string }) => c.type === 'Available');

const apiService = () => ({
  apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.wardle.example.com' },
  spec: { group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: 'wardle-system', name: 'api' }, caBundle, groupPriorityMinimum: 1000, versionPriority: 15 },
});

/** The process's warnings meanwhile: a proxied response must not collect more 'close' listeners than Node allows. */
const warnings: Error[] = [];
const onWarning = (w: Error): void => { warnings.push(w); };

beforeAll(async () => {
  process.on('warning', onWarning);
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-aggregation-'));
  cacheDir = join(dataDir, 'kubectl-cache');
  const front = await ensureFrontProxyPki(join(dataDir, 'pki'));
  s = await startTestApiServer({
    dataDir, storageBackend: 'memory', proxyClientCertFile: front.client.cert, proxyClientKeyFile: front.client.key,
    requestHeader: { clientCaFile: front.ca.cert, allowedNames: ['front-proxy-client'], usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefix: ['X-Remote-Extra-'] },
  });
  const ca = await createCa('wardle-ca', 1);
  const leaf = await issueCertificate(ca, { subject: { commonName: 'api.wardle-system.svc' }, usage: 'server', sans: ['api.wardle-system.svc'], days: 1 });
  caBundle = Buffer.from(ca.cert.toString('pem')).toString('base64');
  ext = createServer({ cert: leaf.certPem, key: leaf.keyPem, ca: await readFile(front.ca.cert, 'utf8'), requestCert: true, rejectUnauthorized: false }, serve);
  // An upgrade (as kubectl exec asks one of a pod): switch protocols, then echo what comes, saying who sent it.
  ext.on('upgrade', (req: IncomingMessage, socket: TLSSocket) => {
    seen.push({ path: (req.url ?? '').split('?')[0]!, user: req.headers['x-remote-user'] as string | undefined, cn: String(socket.getPeerCertificate().subject?.CN) });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', (d: Buffer) => socket.write(`echo:${d.toString()}`));
  });
  await new Promise<void>((r) => ext.listen(0, '127.0.0.1', r));
  extPort = (ext.address() as AddressInfo).port;
  for (const [path, body] of [
    ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wardle-system' } }],
    ['/api/v1/namespaces/wardle-system/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } }],
    ['/api/v1/namespaces/wardle-system/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'api' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: extPort }] }] }],
    ['/apis/apiregistration.k8s.io/v1/apiservices', apiService()],
  ] as const) {
    const res = await s.api('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});

afterAll(async () => {
  process.off('warning', onWarning);
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  releaseWatch?.();
  await s?.close();
  await new Promise<void>((r) => (ext ? ext.close(() => r()) : r()));
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

describe('API aggregation', () => {
  it('lists a Local APIService per built-in group-version and the new one Available, as kubectl shows them', async () => {
    await until('Available=True', async () => ((await availability())?.status === 'True' ? true : undefined));
    expect(await availability()).toMatchObject({ reason: 'Passed', message: 'all checks passed' });
    const out = await kubectl('get', 'apiservices');
    expect(out.stderr).toBe('');
    const rows = out.stdout.trim().split('\n').map((l) => l.split(/\s+/));
    expect(rows[0]).toEqual(['NAME', 'SERVICE', 'AVAILABLE', 'AGE']);
    expect(rows).toContainEqual(expect.arrayContaining(['v1.', 'Local', 'True']));
    expect(rows).toContainEqual(expect.arrayContaining(['v1.apps', 'Local', 'True']));
    expect(rows).toContainEqual(expect.arrayContaining(['v1alpha1.wardle.example.com', 'wardle-system/api', 'True']));
    // The discovery check speaks as the aggregator, with the front-proxy certificate.
    expect(seen.find((x) => x.path === `/apis/${GV}`)).toMatchObject({ cn: 'front-proxy-client', user: 'system:kube-aggregator', groups: 'system:masters' });
  });

  it('merges the group into discovery (legacy and aggregated): kubectl api-resources lists flunders', async () => {
    const groups = (await s.api('GET', '/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups[0]).toBe('apiregistration.k8s.io');
    expect(groups).toContain('wardle.example.com');
    const out = await kubectl('api-resources', '--api-group', 'wardle.example.com');
    expect(out.stdout).toMatch(/^flunders\s+fl\s+wardle\.example\.com\/v1alpha1\s+true\s+Flunder$/m);
  });

  it('serves the extension apiserver\'s OpenAPI v3 document in ours: kubectl explain works', async () => {
    const index = (await s.api('GET', '/openapi/v3')).body;
    expect(index.paths[`apis/${GV}`].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/wardle\.example\.com\/v1alpha1\?hash=[0-9A-F]{128}$/);
    expect(index.paths['apis/apps/v1']).toBeDefined();
    const out = await kubectl('explain', 'flunders.spec');
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('What the flunder should be.');
    expect(out.stdout).toMatch(/reference\s+<string>/);
  });

  it('proxies kubectl get with the user in X-Remote-* headers and the front-proxy certificate', async () => {
    const list = await kubectl('get', 'flunders', '-n', 'default', '-o', 'name');
    expect(list.stderr).toBe('');
    expect(list.stdout.trim()).toBe('flunder.wardle.example.com/my-flunder');
    // The extension apiserver answers no Table: kubectl prints the list itself.
    expect((await kubectl('get', 'flunders', '-n', 'default')).stdout).toMatch(/^my-flunder\s/m);
    const one = await kubectl('get', 'fl', 'my-flunder', '-n', 'default', '-o', 'jsonpath={.kind}');
    expect(one.stdout).toBe('Flunder');
    expect(seen.filter((x) => x.path === `${FLUNDERS}/my-flunder`).at(-1)).toMatchObject({ cn: 'front-proxy-client', user: 'kubernetes-admin', groups: expect.stringContaining('system:masters') });
  });

  it('authorizes before proxying: a user without RBAC is refused here, and reaches the server once allowed', async () => {
    const denied = await kubectl('get', 'flunders', '-n', 'default', '--as', 'alice');
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('flunders.wardle.example.com is forbidden: User "alice" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "default"');
    expect(seen.some((x) => x.user === 'alice')).toBe(false);
    await s.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'flunder-reader' },
      rules: [{ apiGroups: ['wardle.example.com'], resources: ['flunders'], verbs: ['get', 'list'] }],
    });
    await s.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-flunders' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'flunder-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
    });
    const allowed = await until('alice allowed', async () => {
      const r = await kubectl('get', 'flunders', '-n', 'default', '--as', 'alice', '-o', 'name');
      return r.code === 0 ? r : undefined;
    });
    expect(allowed.stdout.trim()).toBe('flunder.wardle.example.com/my-flunder');
    expect(seen.filter((x) => x.path === FLUNDERS).at(-1)).toMatchObject({ user: 'alice', groups: 'system:authenticated' });
  });

  it('serves @kubernetes/client-node: typed APIServices and the aggregated resource as custom objects', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const list = await kc.makeApiClient(ApiregistrationV1Api).listAPIService();
    const wardle = list.items.find((a) => a.metadata?.name === 'v1alpha1.wardle.example.com');
    expect(wardle?.spec).toMatchObject({ group: 'wardle.example.com', service: { namespace: 'wardle-system', name: 'api', port: 443 }, groupPriorityMinimum: 1000 });
    expect(wardle?.status?.conditions?.[0]).toMatchObject({ type: 'Available', status: 'True', reason: 'Passed' });
    expect(wardle?.status?.conditions?.[0]?.lastTransitionTime).toBeInstanceOf(Date);
    const flunders = await kc.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ group: 'wardle.example.com', version: 'v1alpha1', namespace: 'default', plural: 'flunders' });
    expect(flunders.items.map((f: { metadata: { name: string } }) => f.metadata.name)).toEqual(['my-flunder']);
  });

  it.skipIf(!hasPythonClient)('serves the Python client: typed APIServices and the aggregated resource as custom objects', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile('/usr/bin/python3', ['-c', PYTHON, s.kubeconfig], { timeout: 60_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
    });
    expect(JSON.parse(out)).toEqual({ service: 'api', port: 443, available: 'True', reason: 'Passed', transition: 'datetime', flunders: ['my-flunder'] });
  });

  it('streams a watch as the extension apiserver writes it', async () => {
    const res = await request(`${s.url}${FLUNDERS}?watch=1`, { dispatcher: s.agent });
    expect(res.statusCode).toBe(200);
    const chunks = res.body[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(JSON.parse(Buffer.from(first.value as Buffer).toString())).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'first' } } });
    releaseWatch!();
    let rest = '';
    for (let c = await chunks.next(); !c.done; c = await chunks.next()) rest += Buffer.from(c.value as Buffer).toString();
    expect(rest).toContain('"second"');
  });

  it('splices an upgrade request (Connection: Upgrade) through to the extension apiserver', async () => {
    const [ca, cert, key] = await Promise.all([s.pki.ca.cert, s.pki.admin.cert, s.pki.admin.key].map((f) => readFile(f, 'utf8')));
    const { port } = new URL(s.url);
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), ca, cert, key, ALPNProtocols: ['http/1.1'], servername: 'localhost' });
    let got = '';
    socket.on('data', (d: Buffer) => { got += d.toString(); });
    await new Promise<void>((r, j) => { socket.once('secureConnect', r); socket.once('error', j); });
    const path = `${FLUNDERS}/my-flunder/exec?command=sh`;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
    await until('the 101', async () => (got.includes('\r\n\r\n') ? got : undefined), 10_000);
    expect(got).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    socket.write('ping');
    await until('the echo', async () => (got.includes('echo:ping') ? got : undefined), 10_000);
    socket.destroy();
    expect(seen.filter((x) => x.path === `${FLUNDERS}/my-flunder/exec`).at(-1)).toMatchObject({ cn: 'front-proxy-client', user: 'kubernetes-admin' });
  });

  it('merges the extension apiserver\'s OpenAPI v2 into /openapi/v2, renaming a definition it defines otherwise', async () => {
    const doc = await until('the merged document', async () => {
      const d = (await s.api('GET', '/openapi/v2')).body;
      return d.paths[`/apis/${GV}/namespaces/{namespace}/flunders`] ? d : undefined;
    });
    expect(doc.definitions['com.example.wardle.v1alpha1.Flunder'].description).toBe('A flunder (v2).');
    // Ours keeps its name and its paths; theirs is renamed, and their references follow it.
    expect(doc.definitions[STATUS_DEF].description).not.toBe('wardle\'s own Status.');
    expect(doc.definitions[`${STATUS_DEF}_v2`].description).toBe('wardle\'s own Status.');
    expect(doc.paths[`/apis/${GV}/namespaces/{namespace}/flunders`].get.responses[401].schema.$ref).toBe(`#/definitions/${STATUS_DEF}_v2`);
    expect(doc.paths['/api/v1/namespaces'].get.operationId).toBe('listCoreV1Namespace');
    const pb = await request(`${s.url}/openapi/v2`, { dispatcher: s.agent, headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(pb.statusCode).toBe(200);
    expect(Buffer.from(await pb.body.arrayBuffer()).includes('com.example.wardle.v1alpha1.Flunder')).toBe(true);
  });

  it('publishes extension-apiserver-authentication with the front-proxy CA and headers', async () => {
    const cm = (await s.api('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication')).body;
    expect(new X509Certificate(cm.data['client-ca-file']).subject).toBe('CN=mini-kube-ca');
    expect(new X509Certificate(cm.data['requestheader-client-ca-file']).subject).toBe('CN=front-proxy-ca');
    expect(cm.data).toMatchObject({
      'requestheader-allowed-names': '["front-proxy-client"]', 'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]', 'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
  });

  it('registers a Local APIService per served CRD version, and removes it with the CRD', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gizmos.things.example.com' },
      spec: {
        group: 'things.example.com', scope: 'Namespaced', names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
        versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === 'v1', schema: { openAPIV3Schema: { type: 'object' } } })),
      },
    };
    expect((await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const path = (v: string) => `/apis/apiregistration.k8s.io/v1/apiservices/${v}.things.example.com`;
    const v2 = await until('v2.things.example.com Available', async () => {
      const r = await s.api('GET', path('v2'));
      return r.body.status?.conditions?.[0]?.status === 'True' ? r.body : undefined;
    });
    expect(v2).toMatchObject({
      metadata: { labels: { 'kube-aggregator.kubernetes.io/automanaged': 'true' } },
      spec: { group: 'things.example.com', version: 'v2', groupPriorityMinimum: 1000, versionPriority: 100 },
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] },
    });
    expect((await s.api('GET', path('v1'))).status).toBe(200);
    expect((await s.api('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.things.example.com')).status).toBe(200);
    await until('the CRD APIServices gone', async () => ((await s.api('GET', path('v1'))).status === 404 && (await s.api('GET', path('v2'))).status === 404 ? true : undefined));
  });

  it('refuses APIServices as upstream validates them', async () => {
    const bad = { ...apiService(), metadata: { name: 'v1.wardle.example.com' }, spec: { ...apiService().spec, groupPriorityMinimum: 0, insecureSkipTLSVerify: true } };
    const res = await s.api('POST', '/apis/apiregistration.k8s.io/v1/apiservices', bad);
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'metadata.name', message: 'Invalid value: "v1.wardle.example.com": must be `spec.version+"."+spec.group`: "v1alpha1.wardle.example.com"' }),
      expect.objectContaining({ field: 'spec.groupPriorityMinimum', message: 'Invalid value: 0: must be positive and less than 20000' }),
      expect.objectContaining({ field: 'spec.insecureSkipTLSVerify', message: 'Invalid value: true: may not be true if caBundle is present' }),
    ]));
  });

  it('turns unavailable without endpoints (503 from the proxy), and stops proxying once the APIService is gone', async () => {
    expect((await s.api('DELETE', '/api/v1/namespaces/wardle-system/endpoints/api')).status).toBe(200);
    const cond = await until('Available=False', async () => { const c = await availability(); return c?.status === 'False' ? c : undefined; });
    expect(cond).toMatchObject({ reason: 'EndpointsNotFound', message: 'cannot find endpoints for service/api in "wardle-system"' });
    expect((await kubectl('get', 'apiservice', 'v1alpha1.wardle.example.com')).stdout).toMatch(/wardle-system\/api\s+False \(EndpointsNotFound\)/);
    const unavailable = await s.api('GET', FLUNDERS);
    expect([unavailable.status, unavailable.body]).toEqual([503, 'service unavailable\n']);
    // still listed, as upstream's aggregator lists every APIService: stale in aggregated discovery
    expect((await s.api('GET', '/apis')).body.groups.map((g: { name: string }) => g.name)).toContain('wardle.example.com');
    const aggregated = await s.api('GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    const wardle = aggregated.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'wardle.example.com');
    expect(wardle.versions.map((v: { version: string; freshness: string }) => [v.version, v.freshness])).toEqual([['v1alpha1', 'Stale']]);
    // kubectl 1.32's aggregated discovery leaves a stale group-version out quietly, as against upstream
    const resources = await s.kubectl('--cache-dir', join(cacheDir, 'fresh'), 'api-resources');
    expect([resources.code, resources.stdout.includes('wardle')]).toEqual([0, false]);
    expect((await s.api('DELETE', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com')).status).toBe(200);
    const gone = await until('404', async () => { const r = await s.api('GET', FLUNDERS); return r.status === 404 ? r : undefined; });
    // an unknown group again: upstream's not-found handler, Go's plain-text 404
    expect(gone.body).toBe('404 page not found\n');
    expect((await s.api('GET', '/apis')).body.groups.map((g: { name: string }) => g.name)).not.toContain('wardle.example.com');
  });
});
