// Durability of the whole apiserver: `mini-kube apiserver` runs as its own OS process on LevelDB, 32 clients
// create objects over HTTPS, the process is SIGKILLed in the middle, and a new process on the same data dir
// must hold every acknowledged (201) object and hand out resourceVersions above any seen before.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensurePki } from '../../pkg/pki/index.js';
import { bundleMain } from '../support/binary.js';

let bundle: { main: string; cleanup(): Promise<void> } | undefined;
let dataDir = '';
const children = new Set<ChildProcess>();

beforeAll(async () => {
  bundle = await bundleMain('mini-kube-crash-');
  dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-crash-'));
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all([bundle?.cleanup(), dataDir && rm(dataDir, { recursive: true, force: true })]);
});

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `mini-kube apiserver` on a free port and resolves once it logs that it is serving. */
function startApiServer(): Promise<Running> {
  const child = spawn(process.execPath, [bundle!.main, 'apiserver', '--data-dir', dataDir, '--secure-port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => {
    children.delete(child);
    done({ code, signal });
  }));
  return new Promise((ready, fail) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`apiserver did not start in 30 s:\n${log}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      for (const line of log.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const rec = JSON.parse(line) as { msg?: string; url?: string };
          if (rec.msg === 'serving' && rec.url) {
            clearTimeout(timer);
            ready({ child, url: rec.url, exited });
          }
        } catch { /* a partial line */ }
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`apiserver exited (${code ?? signal}) before serving:\n${log}`));
    });
  });
}

async function adminAgent(): Promise<Agent> {
  // The same PKI the apiserver generated on its first start (nothing is regenerated).
  const pki = await ensurePki(join(dataDir, 'pki'), { nodes: [], serverSans: ['127.0.0.1'] });
  const [ca, cert, key] = await Promise.all([pki.ca.cert, pki.admin.cert, pki.admin.key].map((p) => readFile(p, 'utf8')));
  return new Agent({ connect: { ca, cert, key }, connections: 64 });
}

async function call(agent: Agent, url: string, method: string, body?: object): Promise<{ status: number; body: any }> {
  const res = await request(url, {
    method: method as 'GET', dispatcher: agent,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: await res.body.json() };
}

it('a SIGKILL mid-stream loses no acknowledged object; after restart resourceVersions keep growing', async () => {
  const first = await startApiServer();
  const agent = await adminAgent();
  const base = `${first.url}/api/v1/namespaces/default/configmaps`;

  const TOTAL = 1000;
  const KILL_AFTER = 400;
  const acked = new Map<string, number>();
  let next = 0;
  let killed = false;
  let attempted = 0;
  const client = async (): Promise<void> => {
    // Clients keep writing after the kill until the connection fails, so the process always dies mid-stream
    // (stopping at the kill let every in-flight request be answered first now and then).
    for (let i = next++; i < TOTAL; i = next++) {
      const name = `crash-${String(i).padStart(4, '0')}`;
      let res: { status: number; body: any };
      attempted++;
      try {
        res = await call(agent, base, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } });
      } catch {
        return; // the server is gone
      }
      if (res.status !== 201) {
        if (killed) return;
        throw new Error(`create ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      acked.set(name, Number(res.body.metadata.resourceVersion));
      if (acked.size === KILL_AFTER) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, () => client()));
  expect(killed).toBe(true);
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  await agent.close();
  expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(attempted).toBeGreaterThan(acked.size); // clients were still writing when the process died
  const maxAcked = Math.max(...acked.values());

  const second = await startApiServer();
  const agent2 = await adminAgent();
  try {
    const list = await call(agent2, `${second.url}/api/v1/namespaces/default/configmaps`, 'GET');
    expect(list.status).toBe(200);
    const found = new Map<string, any>(list.body.items.map((o: { metadata: { name: string } }) => [o.metadata.name, o]));
    const missing = [...acked.keys()].filter((n) => !found.has(n));
    expect(missing).toEqual([]);
    for (const [name, rv] of acked) {
      const obj = found.get(name);
      expect(Number(obj.metadata.resourceVersion)).toBe(rv);
      expect(obj.data).toEqual({ i: String(Number(name.slice(6))) });
    }
    // Whatever else survived was in flight when the process died: whole objects, never torn ones.
    for (const obj of found.values()) expect(obj.data?.i).toBe(String(Number(obj.metadata.name.slice(6))));
    expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(maxAcked);

    const after = await call(agent2, `${second.url}/api/v1/namespaces/default/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-restart' } });
    expect(after.status).toBe(201);
    expect(Number(after.body.metadata.resourceVersion)).toBeGreaterThan(Math.max(maxAcked, Number(list.body.metadata.resourceVersion)));
  } finally {
    await agent2.close();
    second.child.kill('SIGTERM');
    await second.exited;
  }
}, 60_000);
