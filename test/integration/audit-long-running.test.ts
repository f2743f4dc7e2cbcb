// Audit of long-running requests with the real kubectl against a kubelet (fake runtime): `kubectl exec` (an upgrade
// the apiserver hands to the kubelet) and `kubectl logs -f` each get RequestReceived, ResponseStarted as the
// response starts (101 for the upgrade) and ResponseComplete when the connection ends, as upstream's audit filter.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { createBound, eventually, nodeClient, pod, startKubelet, type RunningKubelet } from './kubelet-support.js';

const NODE = 'node-audit';
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
  resources: [{group: "", resources: ["pods/exec", "pods/log"]}]
- level: None
`;

let api: TestApiServer;
let admin: Client;
let kubelet: RunningKubelet;
let auditLog = '';

const events = async (): Promise<any[]> => (await readFile(auditLog, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** The events of the one request for the subresource, once its ResponseComplete is written. */
const requestEvents = (subresource: string): Promise<any[]> => eventually(async () => {
  const mine = (await events()).filter((e) => e.objectRef?.subresource === subresource);
  return mine.some((e) => e.stage === 'ResponseComplete') ? mine : undefined;
}, 10_000, `the ResponseComplete event of pods/${subresource}`);

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-audit-lr-'));
  auditLog = join(dataDir, 'audit.log');
  await writeFile(join(dataDir, 'policy.yaml'), POLICY);
  api = await startTestApiServer({ dataDir, auditLogPath: auditLog, auditPolicyFile: join(dataDir, 'policy.yaml') });
  admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
  kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
    nodeIpFor: () => '127.0.0.1',
    server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1' },
  });
  await kubelet.host.whenRegistered();
  await createBound(admin, pod('shell', { spec: { automountServiceAccountToken: false } }), NODE);
  await eventually(async () => (await admin.pods('default').get('shell')).status?.phase === 'Running', 20_000, 'shell Running');
}, 60_000);

afterAll(async () => {
  await kubelet?.stop();
  await admin?.close();
  await api?.close();
});

describe('audit of long-running requests', () => {
  it('kubectl exec: RequestReceived, ResponseStarted with 101 as the connection is upgraded, ResponseComplete', async () => {
    expect(await api.kubectl('exec', 'shell', '--', 'echo', 'hi')).toMatchObject({ code: 0, stdout: 'hi\n' });
    const exec = await requestEvents('exec');
    expect(exec.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(new Set(exec.map((e) => e.auditID)).size).toBe(1);
    expect(exec[1]).toMatchObject({ objectRef: { resource: 'pods', name: 'shell', subresource: 'exec' }, user: { username: 'kubernetes-admin' }, responseStatus: { code: 101 } });
    expect(exec[2].responseStatus).toMatchObject({ code: 101 });
  });

  it('kubectl logs -f: RequestReceived and ResponseStarted with 200 while it follows, ResponseComplete once it is gone', async () => {
    const follower = spawn('kubectl', ['--kubeconfig', api.kubeconfig, 'logs', '-f', 'shell'], { stdio: 'ignore' });
    try {
      const stages = async (): Promise<any[]> => (await events()).filter((e) => e.objectRef?.subresource === 'log');
      const open = await eventually(async () => ((await stages()).length >= 2 ? stages() : undefined), 10_000, 'ResponseStarted of pods/log');
      expect(open.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted']);
      expect(open[1].responseStatus).toEqual({ metadata: {}, code: 200 });
    } finally {
      follower.kill();
    }
    const logs = await requestEvents('log');
    expect(logs.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(logs[2].responseStatus).toMatchObject({ code: 200 });
    expect(Date.parse(logs[2].stageTimestamp)).toBeGreaterThanOrEqual(Date.parse(logs[1].stageTimestamp));
  });
});
