// `mini-kube apiserver --storage-backend=etcd3`: the shipped binary on a real etcd, driven by the real kubectl.
// Objects live in etcd under --etcd-prefix as upstream lays them out (resourceVersion = the etcd revision), a watch
// resumes from a resourceVersion, a new apiserver with a fresh data dir finds everything again, and an etcd that
// went away shows in /readyz and as 503s.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from '../../pkg/pki/index.js';
import { freePort, readTls, startServer, type ServerProcess } from '../bench/processes.js';
import { type EtcdServer, haveEtcd, startEtcd } from '../support/etcd.js';
import { bundleMain } from '../support/binary.js';
import { kubectl } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';

interface Apiserver {
  process: ServerProcess;
  kubeconfig: string;
  agent: Agent;
  dataDir: string;
}

let bin: { main: string; cleanup(): Promise<void> } | undefined;
let etcd: EtcdServer | undefined;
const running: Apiserver[] = [];

async function startApiserver(): Promise<Apiserver> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-etcd-'));
  const port = await freePort();
  const pki = join(dataDir, 'pki');
  const process = await startServer('apiserver', [bin!.main, 'apiserver', '--data-dir', dataDir, '--secure-port', String(port),
    '--storage-backend=etcd3', `--etcd-servers=${etcd!.url}`, '--etcd-prefix=/mk'], port, () => readTls(pki));
  const tls = (await readTls(pki))!;
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfig, { server: process.origin, caPem: tls.ca.toString(), certPem: tls.cert.toString(), keyPem: tls.key.toString(), user: 'admin' });
  const server = { process, kubeconfig, agent: new Agent({ connect: tls }), dataDir };
  running.push(server);
  return server;
}

async function stopApiserver(s: Apiserver): Promise<void> {
  running.splice(running.indexOf(s), 1);
  await s.process.stop();
  await s.agent.close();
  await rm(s.dataDir, { recursive: true, force: true });
}

/** A key's record as etcd holds it, read through etcd's own JSON gateway. */
async function etcdRecord(key: string): Promise<{ value: Record<string, any>; modRevision: number } | undefined> {
  const res = await fetch(`${etcd!.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from(key).toString('base64') }) });
  const body = (await res.json()) as { kvs?: { value: string; mod_revision: string }[] };
  const kv = body.kvs?.[0];
  return kv && { value: JSON.parse(Buffer.from(kv.value, 'base64').toString()), modRevision: Number(kv.mod_revision) };
}

const run = (s: Apiserver, ...args: string[]) => succeeded(kubectl(s.kubeconfig, args), args);

describe.skipIf(!haveEtcd())('apiserver on etcd3', () => {
  beforeAll(async () => {
    [bin, etcd] = await Promise.all([bundleMain('mini-kube-etcd-'), startEtcd()]);
  }, 120_000);

  afterAll(async () => {
    for (const s of [...running]) await stopApiserver(s);
    await Promise.all([etcd?.stop(), bin?.cleanup()]);
  });

  it('keeps objects in etcd, watches from a resourceVersion, and a new apiserver finds them', async () => {
    const first = await startApiserver();
    await run(first, 'create', 'configmap', 'a', '--from-literal=k=v');
    const a = JSON.parse((await run(first, 'get', 'configmap', 'a', '-o', 'json')).stdout);
    const stored = await etcdRecord('/mk/configmaps/default/a');
    expect(stored?.modRevision).toBe(Number(a.metadata.resourceVersion));
    expect(stored?.value.data).toEqual({ k: 'v' });
    expect(stored?.value.metadata.resourceVersion).toBeUndefined();

    await run(first, 'create', 'deployment', 'web', '--image=nginx', '--replicas=2');
    await run(first, 'patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":3}}');
    await run(first, 'create', 'configmap', 'b', '--from-literal=x=y');
    await run(first, 'delete', 'configmap', 'a');
    const stale = await kubectl(first.kubeconfig, ['replace', '-f', '-'], JSON.stringify({ ...a, data: { k: 'stale' } }));
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toMatch(/NotFound|not found/);

    // A watch from a's resourceVersion replays what happened after it, in order.
    const res = await request(`${first.process.origin}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${a.metadata.resourceVersion}&timeoutSeconds=1`, { dispatcher: first.agent });
    const events = (await res.body.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED b', 'DELETED a']);
    const revisionBefore = Number(JSON.parse((await run(first, 'get', 'configmaps', '-o', 'json')).stdout).metadata.resourceVersion);
    await stopApiserver(first);

    // Nothing of the first apiserver's data dir is left: the objects come from etcd.
    const second = await startApiserver();
    expect((await run(second, 'get', 'configmap', 'b', '-o', 'jsonpath={.data.x}')).stdout).toBe('y');
    expect((await run(second, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}')).stdout).toBe('3');
    expect((await kubectl(second.kubeconfig, ['get', 'configmap', 'a'])).stderr).toMatch(/NotFound/);
    await run(second, 'create', 'configmap', 'c');
    const c = JSON.parse((await run(second, 'get', 'configmap', 'c', '-o', 'json')).stdout);
    expect(Number(c.metadata.resourceVersion)).toBeGreaterThan(revisionBefore);
    const applied = await kubectl(second.kubeconfig, ['apply', '--server-side', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { applied: 'yes' } }));
    expect(applied.code).toBe(0);
    expect((await etcdRecord('/mk/configmaps/default/c'))?.value.data).toEqual({ applied: 'yes' });

    // etcd gone: /readyz says so, and a write is refused as unavailable rather than failing the server.
    await etcd!.stop();
    const health = await request(`${second.process.origin}/readyz?verbose`, { dispatcher: second.agent });
    expect(health.statusCode).toBe(500);
    expect(await health.body.text()).toContain('[-]etcd failed');
    const down = await request(`${second.process.origin}/api/v1/namespaces/default/configmaps`, {
      method: 'POST', dispatcher: second.agent, headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } }),
    });
    expect(down.statusCode).toBe(503);
    expect(await down.body.json()).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', message: expect.stringContaining('etcd') });
  }, 120_000);
});
