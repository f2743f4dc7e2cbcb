// kube-apiserver's flags about nodes: --service-node-port-range bounds NodePorts; --default-not-ready- and
// --default-unreachable-toleration-seconds set what DefaultTolerationSeconds gives pods; --kubelet-preferred-address-types
// picks the node address the apiserver dials; --kubelet-certificate-authority makes it verify the kubelet's serving
// certificate (which it does not without one), showing its --kubelet-client-certificate.
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/certificates.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let dir: string;
let kubelet: Server;
let kubeletPort: number;
let kubeletCa: string;
let otherCa: string;
const running: TestApiServer[] = [];
const seenClients: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'node-flags-'));
  const ca = await createCa('kubelet-ca', 1);
  const serving = await issueCertificate(ca, { subject: { commonName: 'n1' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
  kubeletCa = join(dir, 'kubelet-ca.crt');
  otherCa = join(dir, 'other-ca.crt');
  await writeFile(kubeletCa, ca.cert.toString('pem'));
  await writeFile(otherCa, (await createCa('other', 1)).cert.toString('pem'));
  // a kubelet's /healthz (other paths answer with the URL they got), telling who called (the apiserver's client certificate)
  kubelet = createServer({ cert: serving.certPem, key: serving.keyPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    seenClients.push(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''));
    res.end(req.url === '/healthz' ? 'ok' : `kubelet ${req.url}`);
  });
  await new Promise<void>((r) => kubelet.listen(0, '127.0.0.1', r));
  kubeletPort = (kubelet.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of running) await s.close();
  kubelet?.close();
  await rm(dir, { recursive: true, force: true });
});

const start = async (o: Parameters<typeof startTestApiServer>[0]): Promise<TestApiServer> => {
  const s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [], ...o });
  running.push(s);
  return s;
};

const node = (addresses: { type: string; address: string }[]) => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' },
  status: { addresses, daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } } },
});

describe('--service-node-port-range', () => {
  it('allocates NodePorts from it and refuses one outside it with upstream\'s message', async () => {
    const s = await start({ serviceNodePortRange: { min: 31000, max: 31001 } });
    const svc = (name: string, nodePort?: number) => ({
      apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' },
      spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80, ...(nodePort ? { nodePort } : {}) }] },
    });
    const a = await s.api('POST', '/api/v1/namespaces/default/services', svc('a'));
    expect([31000, 31001]).toContain(a.body.spec.ports[0].nodePort);
    const out = await s.api('POST', '/api/v1/namespaces/default/services', svc('b', 30080));
    expect(out.status).toBe(422);
    expect(out.body.message).toBe('Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is not in the valid range. The range of valid ports is 31000-31001');
    expect((await s.api('POST', '/api/v1/namespaces/default/services', svc('c'))).status).toBe(201);
    const full = await s.api('POST', '/api/v1/namespaces/default/services', svc('d'));
    expect(full.body.message).toContain('range is full');
  });
});

describe('--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds', () => {
  it('are the tolerationSeconds DefaultTolerationSeconds gives a pod without its own', async () => {
    const s = await start({ controllers: ['serviceaccount'], defaultTolerationSeconds: { notReady: 30, unreachable: 60 } });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const created = await s.api('POST', '/api/v1/namespaces/default/pods', pod);
    expect(created.status).toBe(201);
    expect(created.body.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    ]);
  });
});

describe('the apiserver\'s kubelet client', () => {
  it('dials the first address of the preferred types, and says which ones the node has when none matches', async () => {
    const s = await start({ kubeletClient: { certFile: '', keyFile: '', preferredAddressTypes: ['ExternalIP', 'InternalIP'] } });
    expect((await s.api('POST', '/api/v1/nodes', node([{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '127.0.0.1' }]))).status).toBe(201);
    const r = await s.kubectl('get', '--raw', '/api/v1/nodes/n1/proxy/healthz');
    expect(r.stdout).toBe('ok');
    // the path the kubelet gets is the decoded one (the Python client sends stats%2Fsummary), as upstream's location.Path
    expect((await s.api('GET', '/api/v1/nodes/n1/proxy/stats%2Fsummary?only_cpu_and_memory=true')).body).toBe('kubelet /stats/summary?only_cpu_and_memory=true');
    const only = await start({ kubeletClient: { certFile: '', keyFile: '', preferredAddressTypes: ['ExternalIP'] } });
    expect((await only.api('POST', '/api/v1/nodes', node([{ type: 'InternalIP', address: '127.0.0.1' }]))).status).toBe(201);
    const none = await only.api('GET', '/api/v1/nodes/n1/proxy/healthz');
    expect(none.body.message).toBe('no preferred addresses found; known addresses: [{InternalIP 127.0.0.1}]');
  });

  it('verifies the kubelet\'s serving certificate against --kubelet-certificate-authority, showing its client certificate', async () => {
    const verified = await start({});
    const pki = verified.pki;
    await verified.stop();
    running.splice(running.indexOf(verified), 1);
    const client = { certFile: pki.apiserverKubeletClient.cert, keyFile: pki.apiserverKubeletClient.key, preferredAddressTypes: ['InternalIP'] };
    const good = await start({ kubeletClient: { ...client, caFile: kubeletCa } });
    await good.api('POST', '/api/v1/nodes', node([{ type: 'InternalIP', address: '127.0.0.1' }]));
    seenClients.length = 0;
    expect((await good.kubectl('get', '--raw', '/api/v1/nodes/n1/proxy/healthz')).stdout).toBe('ok');
    expect(seenClients).toEqual(['kube-apiserver-kubelet-client']);
    const bad = await start({ kubeletClient: { ...client, caFile: otherCa } });
    await bad.api('POST', '/api/v1/nodes', node([{ type: 'InternalIP', address: '127.0.0.1' }]));
    const refused = await bad.api('GET', '/api/v1/nodes/n1/proxy/healthz');
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/^error trying to reach service: .*(certificate|verify)/);
  });
});
