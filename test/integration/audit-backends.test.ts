// The audit backends with the real kubectl: the log in upstream's legacy format, and the webhook backend POSTing
// audit.k8s.io/v1 EventLists (batched) to a server named by a kubeconfig.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let hook: Server;
let dir = '';
const batches: { kind: string; apiVersion: string; items: { auditID: string; stage: string; verb: string; requestURI: string }[] }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mini-kube-audit-backends-'));
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => { batches.push(JSON.parse(body) as (typeof batches)[number]); res.end('{}'); });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const kubeconfig = join(dir, 'webhook.kubeconfig');
  await writeFile(kubeconfig, `apiVersion: v1
kind: Config
clusters: [{name: hook, cluster: {server: "http://127.0.0.1:${(hook.address() as AddressInfo).port}/audit"}}]
users: [{name: apiserver, user: {}}]
contexts: [{name: hook, context: {cluster: hook, user: apiserver}}]
current-context: hook
`);
  s = await startTestApiServer({
    auditLogPath: join(dir, 'audit.log'), auditLog: { format: 'legacy' },
    auditWebhook: { configFile: kubeconfig, mode: 'batch', batchMaxSize: 400, batchMaxWaitMs: 100 },
  });
}, 30_000);

afterAll(async () => {
  await s?.close();
  hook?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('audit backends', () => {
  it('logs legacy lines and sends the same events to the webhook in EventLists', async () => {
    const r = await s.kubectl('create', 'configmap', 'audited', '--from-literal=a=b');
    expect(r.code, r.stderr).toBe(0);
    const deadline = Date.now() + 10_000;
    const sent = () => batches.flatMap((b) => b.items);
    while (!sent().some((e) => e.verb === 'create' && e.stage === 'ResponseComplete' && e.requestURI.includes('configmaps')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(batches[0]).toMatchObject({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1' });
    const create = sent().find((e) => e.verb === 'create' && e.stage === 'ResponseComplete' && e.requestURI.includes('configmaps'))!;
    expect(create).toBeDefined();
    const log = await readFile(join(dir, 'audit.log'), 'utf8');
    const line = log.split('\n').find((l) => l.includes(`id="${create.auditID}" stage="ResponseComplete"`));
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z AUDIT: id="[^"]+" stage="ResponseComplete" ip="127\.0\.0\.1" method="create" user="kubernetes-admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl[^"]*" namespace="default" uri="\/api\/v1\/namespaces\/default\/configmaps\?[^"]*" response="201"$/);
  });
});
