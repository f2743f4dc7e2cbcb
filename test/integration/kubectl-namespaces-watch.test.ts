// The real kubectl with namespaces (create, Terminating refuses new content) and `get -w`.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

const configMap = (name: string, data = '{a: "1"}'): string => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: ${data}\n`;

/** Polls `check` until it holds or the deadline passes. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `kubectl create namespace|configmap|secret|deployment|service` go through client-go's typed clients,
 * which send protobuf bodies. Decoding them is being added by another change; until the server
 * takes them, these tests are skipped rather than failed.
 */
async function skipUnlessProtobuf(ctx: { skip: (note?: string) => void }): Promise<void> {
  const r = await s.api('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', Buffer.from('k8s\0').toString('latin1'), { 'content-type': 'application/vnd.kubernetes.protobuf' });
  if (r.status === 415) ctx.skip('protobuf request bodies are not decoded yet');
}

describe('kubectl and namespaces', () => {
  it('kubectl create namespace', async (ctx) => {
    await skipUnlessProtobuf(ctx);
    expect(await ok(s.kubectl('create', 'namespace', 'team-a'))).toBe('namespace/team-a created\n');
    const ns = JSON.parse(await ok(s.kubectl('get', 'ns', 'team-a', '-o', 'json')));
    expect(ns.status.phase).toBe('Active');
    expect(ns.spec.finalizers).toEqual(['kubernetes']);
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    const again = await s.kubectl('create', 'namespace', 'team-a');
    expect(again.stderr).toBe('Error from server (AlreadyExists): namespaces "team-a" already exists\n');
  });

  it('kubectl create configmap, secret and deployment (typed clients)', async (ctx) => {
    await skipUnlessProtobuf(ctx);
    expect(await ok(s.kubectl('create', 'configmap', 'gen', '--from-literal=k=v', '-n', 'team-a'))).toBe('configmap/gen created\n');
    expect(await ok(s.kubectl('get', 'cm', 'gen', '-n', 'team-a', '-o', 'jsonpath={.data.k}'))).toBe('v');
    expect(await ok(s.kubectl('create', 'secret', 'generic', 'sec', '--from-literal=pw=hunter2', '-n', 'team-a'))).toBe('secret/sec created\n');
    expect(await ok(s.kubectl('get', 'secret', 'sec', '-n', 'team-a', '-o', 'jsonpath={.data.pw}'))).toBe(Buffer.from('hunter2').toString('base64'));
    expect(await ok(s.kubectl('create', 'deployment', 'gen', '--image=nginx:1.25', '--replicas=2', '-n', 'team-a'))).toBe('deployment.apps/gen created\n');
    const dep = JSON.parse(await ok(s.kubectl('get', 'deploy', 'gen', '-n', 'team-a', '-o', 'json')));
    expect(dep.spec.replicas).toBe(2);
    expect(dep.spec.selector).toEqual({ matchLabels: { app: 'gen' } });
    expect(dep.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.25' });
    expect(await ok(s.kubectl('create', 'service', 'clusterip', 'gen', '--tcp=80:8080', '-n', 'team-a'))).toBe('service/gen created\n');
  });

  it('a Terminating namespace refuses new content with Forbidden', async () => {
    await ok(s.kubectlWithInput('apiVersion: v1\nkind: Namespace\nmetadata: {name: doomed}\n', 'create', '-f', '-'));
    await ok(s.kubectlWithInput(configMap('before'), 'create', '-n', 'doomed', '-f', '-'));
    // Nothing finalizes the namespace here (no namespace controller): it stays Terminating.
    expect(await ok(s.kubectl('delete', 'ns', 'doomed', '--wait=false'))).toBe('namespace "doomed" deleted\n');
    const ns = await ok(s.kubectl('get', 'ns', 'doomed', '--no-headers'));
    expect(ns.split(/\s+/).slice(0, 2)).toEqual(['doomed', 'Terminating']);
    const r = await s.kubectlWithInput(configMap('after'), 'create', '-n', 'doomed', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error from server (Forbidden): error when creating "STDIN": configmaps "after" is forbidden: unable to create new content in namespace doomed because it is being terminated\n');
    // Updates of what is already there still go through.
    expect(await ok(s.kubectl('label', 'cm', 'before', '-n', 'doomed', 'x=y'))).toBe('configmap/before labeled\n');
  });

  it('the system namespaces cannot be deleted', async () => {
    const r = await s.kubectl('delete', 'ns', 'kube-system');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted\n');
  });

  it('a missing namespace is NotFound', async () => {
    const r = await s.kubectlWithInput(configMap('x'), 'create', '-n', 'missing', '-f', '-');
    expect(r.stderr).toBe('Error from server (NotFound): error when creating "STDIN": namespaces "missing" not found\n');
  });
});

describe('kubectl get -w', () => {
  it('prints the current object, then each change', async () => {
    await ok(s.kubectlWithInput(configMap('watched'), 'create', '-f', '-'));
    const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'configmaps', '-w', '--request-timeout=30s'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { err += b.toString(); });
    try {
      await eventually(async () => /^watched\s+1\s+\d+s$/m.test(out), 'the initial listing');
      expect(out.split('\n')[0]).toMatch(/^NAME\s+DATA\s+AGE$/);
      await ok(s.kubectlWithInput(configMap('watched', '{a: "1", b: "2"}'), 'replace', '-f', '-'));
      await eventually(async () => /^watched\s+2\s+\d+s$/m.test(out), 'the update');
      await ok(s.kubectlWithInput(configMap('newcomer'), 'create', '-f', '-'));
      await eventually(async () => /^newcomer\s+1\s+\d+s$/m.test(out), 'the new object');
      const lines = out.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '));
      // (kube-root-ca.crt appears once a controller publishes it; none runs here.)
      expect(lines.filter((l) => !l.startsWith('kube-root-ca.crt'))).toEqual(['NAME DATA', 'watched 1', 'watched 2', 'newcomer 1']);
      expect(err).toBe('');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('prints a watched pod through its lifecycle with --output-watch-events', async () => {
    const pod = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec: {containers: [{name: c, image: busybox:1.36}]}\n`;
    await ok(s.kubectlWithInput(pod('w0'), 'create', '-f', '-'));
    const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'pods', '-w', '--output-watch-events', '--request-timeout=30s'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { out += b.toString(); });
    try {
      // The listing comes first, as ADDED events; the watch starts right after it.
      await eventually(async () => /^ADDED\s+w0\s+0\/1\s+Pending/m.test(out), 'the initial listing');
      await ok(s.kubectlWithInput(pod('w1'), 'create', '-f', '-'));
      await eventually(async () => /^ADDED\s+w1\s+0\/1\s+Pending\s+0\s+\d+s$/m.test(out), 'ADDED');
      await ok(s.kubectl('label', 'pod', 'w1', 'x=y'));
      await eventually(async () => /^MODIFIED\s+w1\s+0\/1\s+Pending/m.test(out), 'MODIFIED');
      await ok(s.kubectl('delete', 'pod', 'w1'));
      // marked before it goes, as upstream's graceful deletion does (a period of 0 for an unscheduled pod): Terminating
      await eventually(async () => /^MODIFIED\s+w1\s+0\/1\s+Terminating\s[^]*^DELETED\s+w1\s+0\/1\s+Terminating/m.test(out), 'DELETED');
      expect(out).toMatch(/^EVENT\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/m);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
