// kubectl exec, attach and port-forward through the apiserver to the kubelet's node server and the process runtime,
// with the real kubectl on both of its transports: WebSocket (1.30+ exec/attach v5.channel.k8s.io; 1.31+
// port-forward tunnels SPDY in a WebSocket) and the SPDY/3.1 upgrade (kubectl 1.29, and the fallback).
import { execFile, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { WebSocket } from 'ws';
import * as k8s from '@kubernetes/client-node';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { ProcessRuntime } from '../../pkg/kubelet/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { freePort } from '../../pkg/host/free-port.js';
import { hasPythonClient, runPython } from '../support/python-client.js';
import { wsFramesByRecord } from '../support/tls-records.js';
import { createBound, eventually, nodeClient, pod, publishRootCa, removeRootDir, type RunningKubelet, startKubelet } from './kubelet-support.js';

const NODE = 'node-stream';

/** The versioned kubectl binaries the `kubectl` dispatcher on PATH chooses from. */
const kubectlBinary = (version: string): string => {
  const bin = join(dirname(realpathSync(process.env.PATH!.split(':').map((d) => join(d, 'kubectl')).find((p) => existsSync(p))!)), `kubectl.${version}`);
  return existsSync(bin) ? bin : 'kubectl';
};

// The Python client's stream module: exec over WebSocket v4.channel.k8s.io, port-forward over channels.
const PYTHON = `
import sys, json
from kubernetes import client, config
from kubernetes.stream import stream, portforward
config.load_kube_config(sys.argv[1])
v1 = client.CoreV1Api()
out = {}
out['exec'] = stream(v1.connect_get_namespaced_pod_exec, 'shell', 'default', command=['sh', '-c', 'echo "py $GREETING"'], stderr=True, stdin=False, stdout=True, tty=False)
r = stream(v1.connect_get_namespaced_pod_exec, 'shell', 'default', command=['sh', '-c', 'exit 5'], stderr=True, stdin=False, stdout=True, tty=False, _preload_content=False)
r.run_forever(timeout=10)
out['code'] = r.returncode
pf = portforward(v1.connect_get_namespaced_pod_portforward, 'nginx', 'default', ports=sys.argv[2])
sock = pf.socket(int(sys.argv[2]))
sock.setblocking(True)
sock.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')
data = b''
while True:
    chunk = sock.recv(4096)
    if not chunk:
        break
    data += chunk
sock.close()
out['http'] = data.decode()
print(json.dumps(out))
`;

// -v=4 makes kubectl log a fallback from WebSocket to SPDY, which the WebSocket client must not need.
const CLIENTS: { name: string; bin: string; env: Record<string, string>; flags: string[] }[] = [
  { name: 'kubectl 1.33 (WebSocket)', bin: kubectlBinary('1.33'), env: {}, flags: ['-v=4'] },
  { name: 'kubectl 1.29 (SPDY)', bin: kubectlBinary('1.29'), env: {}, flags: [] },
  { name: 'kubectl 1.33 with websockets off (SPDY)', bin: kubectlBinary('1.33'), env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false', KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }, flags: [] },
];

describe('kubelet: kubectl exec, attach and port-forward', () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let rootDir = '';
  let nginxPort = 0;

  const run = (bin: string, env: Record<string, string>, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = execFile(bin, ['--kubeconfig', api.kubeconfig, ...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      });
      if (input !== undefined) child.stdin!.end(input);
      else child.stdin!.end();
    });

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    rootDir = await mkdtemp(join(tmpdir(), 'mini-kube-stream-'));
    await mkdir(join(rootDir, 'var-log', 'pods'), { recursive: true });
    await writeFile(join(rootDir, 'var-log', 'syslog'), 'booted\n');
    await publishRootCa(api, admin);
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1',
      runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir, hostIp }),
      server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1', logDir: join(rootDir, 'var-log') },
    });
    await kubelet.host.whenRegistered();
    nginxPort = await freePort();
    await createBound(admin, pod('shell', { spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'exec sleep 600'], env: [{ name: 'GREETING', value: 'hello' }] }] } }), NODE);
    await createBound(admin, pod('reader', {
      spec: { containers: [{ name: 'r', image: 'busybox', stdin: true, command: ['sh', '-c', 'while read line; do echo "got $line"; done; echo bye'] }] },
    }), NODE);
    await createBound(admin, pod('nginx', {
      spec: { containers: [{ name: 'nginx', image: 'nginx', env: [{ name: 'NGINX_PORT', value: String(nginxPort) }], ports: [{ containerPort: nginxPort }] }] },
    }), NODE);
    await createBound(admin, pod('term', {
      spec: { containers: [{ name: 't', image: 'busybox', stdin: true, tty: true, command: ['sh'] }] },
    }), NODE);
    // a container that has exited while its neighbour runs on (restartPolicy Never), and a pod that has completed
    await createBound(admin, pod('halfdone', {
      spec: { restartPolicy: 'Never', containers: [{ name: 'done', image: 'busybox', command: ['true'] }, { name: 'alive', image: 'busybox', command: ['sleep', '600'] }] },
    }), NODE);
    await createBound(admin, pod('finished', { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['true'] }] } }), NODE);
    for (const name of ['shell', 'reader', 'nginx', 'term']) {
      await eventually(async () => (await admin.pods('default').get(name)).status?.phase === 'Running', 20_000, `${name} Running`);
    }
    await eventually(async () => {
      const statuses = ((await admin.pods('default').get('halfdone')).status?.containerStatuses ?? []) as { name: string; state: Record<string, unknown> }[];
      return statuses.find((c) => c.name === 'done')?.state.terminated && statuses.find((c) => c.name === 'alive')?.state.running;
    }, 20_000, 'halfdone: done exited, alive running');
    await eventually(async () => (await admin.pods('default').get('finished')).status?.phase === 'Succeeded', 20_000, 'finished Succeeded');
  }, 60_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
    if (rootDir) await removeRootDir(rootDir);
  });

  for (const c of CLIENTS) {
    describe(c.name, () => {
      it('exec prints the output and exits with the command\'s code', async () => {
        const r = await run(c.bin, c.env, [...c.flags, 'exec', 'shell', '--', 'sh', '-c', 'echo "$GREETING"; echo oops >&2; exit 3']);
        expect(r.stdout).toBe('hello\n');
        expect(r.stderr).toContain('oops');
        expect(r.stderr).not.toMatch(/fallback/i);
        expect(r.code).toBe(3);
        const ok = await run(c.bin, c.env, ['exec', 'shell', '-c', 'sh', '--', 'true']);
        expect(ok).toMatchObject({ code: 0, stdout: '' });
      });

      it('exec -i passes stdin through to its end', async () => {
        const r = await run(c.bin, c.env, ['exec', '-i', 'shell', '--', 'cat'], 'data\nmore data\n');
        expect(r).toMatchObject({ code: 0, stdout: 'data\nmore data\n' });
        // Megabytes both ways: many frames, no flow-control stall.
        const up = await run(c.bin, c.env, ['exec', '-i', 'shell', '--', 'wc', '-c'], 'x'.repeat(3_000_000));
        expect(up.stdout.trim()).toBe('3000000');
        const down = await run(c.bin, c.env, ['exec', 'shell', '--', 'head', '-c', '3000000', '/dev/zero']);
        expect(down.stdout.length).toBe(3_000_000);
      });

      it('exec reports a container that does not exist and a command that cannot start', async () => {
        const missing = await run(c.bin, c.env, ['exec', 'shell', '-c', 'nope', '--', 'true']);
        expect(missing.code).not.toBe(0);
        expect(missing.stderr).toContain('container nope is not valid for pod shell');
        const bad = await run(c.bin, c.env, ['exec', 'shell', '--', 'no-such-command']);
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toContain('executable file not found');
      });

      it('exec into a container that has exited: the kubelet\'s "container not found", as each transport words it', async () => {
        const r = await run(c.bin, c.env, [...c.flags, 'exec', 'halfdone', '-c', 'done', '--', 'true']);
        expect(r.code).toBe(1);
        // over WebSocket v5 the apiserver has upgraded already, and its SPDY leg's failure comes back as a Status;
        // over SPDY the kubelet's 500 is the client's own failed upgrade
        expect(r.stderr).toContain(c.name.includes('WebSocket')
          ? 'error: Internal error occurred: unable to upgrade connection: container not found ("done")\n'
          : 'error: unable to upgrade connection: container not found ("done")\n');
        expect(r.stderr).not.toMatch(/fallback/i);
      });

      it.skipIf(!existsSync('/usr/bin/script'))('exec -it: an interactive shell on a pty, its exit code back', async () => {
        // kubectl wants a terminal for -t: util-linux `script` gives it one, fed from a pipe.
        const cmd = [c.bin, '--kubeconfig', api.kubeconfig, ...c.flags, 'exec', '-it', 'shell', '--', 'sh'].map((a) => `'${a}'`).join(' ');
        const r = await new Promise<{ code: number; out: string }>((resolve) => {
          const child = execFile('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { timeout: 60_000, env: { ...process.env, ...c.env } }, (err, stdout) => {
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout });
          });
          child.stdin!.write('tty; echo "sum=$((40+2))"\n');
          setTimeout(() => child.stdin!.end('exit 7\n'), 1500);
        });
        expect(r.out).toMatch(/\/dev\/pts\/\d+\r\n/);
        expect(r.out).toContain('sum=42\r\n');
        expect(r.out).not.toMatch(/fallback/i);
        expect(r.code).toBe(7);
      });

      it('attach -i joins the running container\'s stdin and stdout', async () => {
        const child = spawn(c.bin, ['--kubeconfig', api.kubeconfig, ...c.flags, 'attach', '-i', 'reader'], { env: { ...process.env, ...c.env } });
        let out = '';
        child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
        child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
        try {
          const line = `ping-${c.bin.slice(-4)}-${Object.keys(c.env).length}`;
          await eventually(async () => { child.stdin.write(`${line}\n`); await new Promise((r) => setTimeout(r, 300)); return out.includes(`got ${line}`); }, 20_000, 'attach echo');
        } finally {
          child.kill('SIGINT');
        }
        expect(out).not.toMatch(/fallback/i);
      });

      it.skipIf(!existsSync('/usr/bin/script'))('attach -it joins a tty container\'s shell on its pty; the terminal size reaches it', async () => {
        const cmd = ['stty', 'rows', '33', 'cols', '101', '&&', 'exec', c.bin, '--kubeconfig', api.kubeconfig, ...c.flags, 'attach', '-it', 'term'].map((a) => (a === '&&' ? a : `'${a}'`)).join(' ');
        const child = spawn('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { env: { ...process.env, ...c.env } });
        let out = '';
        child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
        try {
          const tag = `${c.bin.slice(-4)}${Object.keys(c.env).length}`;
          await eventually(async () => {
            child.stdin.write(`tty; stty size; echo "sum=$((40+2))-${tag} term=$TERM"\n`);
            await new Promise((r) => setTimeout(r, 300));
            // kubectl attach resizes to one more row and column, then to the size, to make the shell redraw
            // a terminal container has containerd's TERM=xterm
            return out.includes(`sum=42-${tag} term=xterm\r\n`) && out.includes('33 101\r\n');
          }, 20_000, 'the tty shell answering, at the terminal\'s size');
          expect(out).toMatch(/\/dev\/pts\/\d+\r\n/);
          expect(out).not.toMatch(/fallback/i);
        } finally {
          child.kill('SIGKILL');
        }
      });

      it('port-forward reaches the pod\'s port', async () => {
        const child = spawn(c.bin, ['--kubeconfig', api.kubeconfig, ...c.flags, 'port-forward', 'pod/nginx', `0:${nginxPort}`], { env: { ...process.env, ...c.env } });
        let out = '';
        child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
        child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
        try {
          const local = await eventually(async () => /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out)?.[1], 20_000, `port-forward ready: ${out}`);
          for (let i = 0; i < 2; i++) {
            const res = await request(`http://127.0.0.1:${local}/`, { reset: true });
            expect(res.statusCode).toBe(200);
            expect(await res.body.text()).toContain('Welcome to nginx!');
          }
          expect(out).toContain('Handling connection for');
          expect(out).not.toMatch(/fallback/i);
        } finally {
          child.kill('SIGINT');
        }
      });
    });
  }

  it('@kubernetes/client-node: exec with status and a tty (a real pty), port-forward over WebSocket channels', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfig);
    const exec = (command: string[], tty: boolean): Promise<{ out: string; status: k8s.V1Status }> => new Promise((resolve) => {
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (d: Buffer) => { out += d.toString(); });
      void new k8s.Exec(kc).exec('default', 'shell', 'sh', command, stdout, stdout, null, tty, (status) => setTimeout(() => resolve({ out, status }), 100));
    });
    const plain = await exec(['sh', '-c', 'echo "$GREETING"; exit 4'], false);
    expect(plain.out).toBe('hello\n');
    expect(plain.status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '4' }] } });
    const tty = await exec(['tty'], true);
    expect(tty.out).toMatch(/^\/dev\/pts\/\d+\r\n$/);
    expect(tty.status).toMatchObject({ status: 'Success' });

    const server = createServer((socket) => { void new k8s.PortForward(kc).portForward('default', 'nginx', [nginxPort], socket, null, socket); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const local = (server.address() as { port: number }).port;
      const text = await new Promise<string>((resolve, reject) => {
        const c = connect(local, '127.0.0.1', () => c.write('GET / HTTP/1.0\r\n\r\n'));
        let got = '';
        c.on('data', (d: Buffer) => { got += d.toString(); if (got.includes('</html>')) { c.destroy(); resolve(got); } });
        c.on('error', reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      expect(text).toContain('Welcome to nginx!');
    } finally {
      server.close();
    }
  });

  it('@kubernetes/client-node: its terminal size ({"height":41,"width":101}, lower-case keys) reaches the exec\'s pty', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfig);
    // a stream with rows and columns is a terminal to client-node: it sends the size on channel 4
    const stdout = Object.assign(new PassThrough(), { rows: 41, columns: 101 });
    let out = '';
    stdout.on('data', (d: Buffer) => { out += d.toString(); });
    // the size may land just after the command starts: it polls (up to 5 s) for one
    const poll = 'for i in $(seq 50); do s=$(stty size); [ "$s" != "0 0" ] && break; sleep 0.1; done; echo "size=$s"';
    const status = await new Promise<k8s.V1Status>((resolve) => {
      void new k8s.Exec(kc).exec('default', 'shell', 'sh', ['sh', '-c', poll], stdout, null, null, true, resolve);
    });
    expect(status).toMatchObject({ status: 'Success' });
    await eventually(async () => out.includes('\r\n'), 5_000, 'the output');
    expect(out).toBe('size=41 101\r\n');
  });

  it('@kubernetes/client-node: exec into a container that is not running ends with a Failure Status, not an HTTP error', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfig);
    const exec = (podName: string, container: string): Promise<k8s.V1Status> => new Promise((resolve, reject) => {
      new k8s.Exec(kc).exec('default', podName, container, ['true'], new PassThrough(), new PassThrough(), null, false, resolve).catch(reject);
    });
    const internal = (message: string): Record<string, unknown> => ({
      metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500,
    });
    expect(await exec('halfdone', 'done')).toEqual(internal('unable to upgrade connection: container not found ("done")'));
    expect(await exec('finished', 'main')).toEqual(internal('unable to upgrade connection: container not found ("main")'));
  });

  it('attach and exec to a container that is not running: v5 gets the Status after the upgrade, v4 the kubelet\'s 500 as it is', async () => {
    const [ca, cert, key] = await Promise.all([api.pki.ca.cert, api.pki.admin.cert, api.pki.admin.key].map((f) => readFile(f, 'utf8')));
    const { hostname, port } = new URL(api.url);
    const attach = '/api/v1/namespaces/default/pods/halfdone/attach?container=done&stdout=true&stderr=true';
    const message = 'unable to upgrade connection: container done not found in pod halfdone_default';
    expect(await wsFramesByRecord({ host: hostname, port: Number(port), ca, cert, key }, attach, 'v5.channel.k8s.io')).toEqual([
      ['1:'],
      [`3:${JSON.stringify({ metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 })}`],
      ['close'],
    ]);
    // without v5 nothing is translated: the kubelet's answer (upstream's streaming WriteError) comes through
    for (const path of [attach, '/api/v1/namespaces/default/pods/halfdone/exec?container=done&command=true&stdout=true']) {
      const answer = await new Promise<{ status?: number; type?: string; body: string }>((resolve) => {
        const ws = new WebSocket(`wss://${hostname}:${port}${path}`, ['v4.channel.k8s.io'], { ca, cert, key });
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (d: Buffer) => { body += d.toString(); });
          res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
        });
        ws.on('open', () => { ws.terminate(); resolve({ body: 'upgraded' }); });
      });
      expect(answer).toEqual({
        status: 500, type: 'text/plain; charset=utf-8',
        body: path.includes('/exec') ? 'container not found ("done")' : 'container done not found in pod halfdone_default',
      });
    }
  });

  it.skipIf(!hasPythonClient)('the Python client: stream exec (output, return code) and portforward', async () => {
    const out = JSON.parse(await runPython(PYTHON, [api.kubeconfig, String(nginxPort)]));
    expect(out.exec).toBe('py hello\n');
    expect(out.code).toBe(5);
    expect(out.http).toMatch(/^HTTP\/1\.[01] 200/);
    expect(out.http).toContain('Welcome to nginx!');
  });

  it('exec over WebSocket: every frame reaches the client in a TLS record of its own, the close frame too (as upstream)', async () => {
    const [ca, cert, key] = await Promise.all([api.pki.ca.cert, api.pki.admin.cert, api.pki.admin.key].map((f) => readFile(f, 'utf8')));
    const { hostname, port } = new URL(api.url);
    // v4 is the kubelet's own session, spliced; v5 the apiserver's translation of it
    for (const protocol of ['v4.channel.k8s.io', 'v5.channel.k8s.io']) {
      for (let i = 0; i < 5; i++) {
        const records = await wsFramesByRecord({ host: hostname, port: Number(port), ca, cert, key },
          '/api/v1/namespaces/default/pods/shell/exec?container=sh&command=echo&command=hi&stdout=true&stderr=true', protocol);
        expect(records, protocol).toEqual([['1:'], ['1:hi\n'], ['3:{"metadata":{},"status":"Success"}'], ['close']]);
      }
    }
  });

  it('a plain GET of pods/exec names a bad container first, as upstream resolves the location before asking for an upgrade', async () => {
    const bad = await api.api('GET', '/api/v1/namespaces/default/pods/shell/exec?container=zz&command=true&stdout=true');
    expect([bad.status, (bad.body as { message?: string }).message]).toEqual([400, 'container zz is not valid for pod shell']);
    const plain = await api.api('GET', '/api/v1/namespaces/default/pods/shell/exec?container=sh&command=true&stdout=true');
    expect([plain.status, (plain.body as { message?: string }).message]).toEqual([400, 'Upgrade request required']);
  });

  it('needs create pods/exec: a user who may only get pods/exec is refused, over both transports', async () => {
    await admin.resource<KubeObject>({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', namespaced: true, kind: 'Role' }, 'default').create({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'exec-get' },
      rules: [{ apiGroups: [''], resources: ['pods', 'pods/exec'], verbs: ['get'] }],
    } as KubeObject);
    await admin.resource<KubeObject>({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', namespaced: true, kind: 'RoleBinding' }, 'default').create({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'exec-get' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'exec-get' }, subjects: [{ kind: 'User', name: 'viewer' }],
    } as KubeObject);
    for (const cl of CLIENTS.slice(0, 2)) {
      const r = await run(cl.bin, cl.env, ['--as', 'viewer', 'exec', 'shell', '--', 'true']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('cannot create resource "pods/exec"');
    }
  });

  describe('kubectl debug (ephemeral containers) and the pods/services proxy', () => {
    const kubectl = CLIENTS[0]!;
    const ephemeral = async (name: string): Promise<Record<string, unknown>> => eventually(async () => {
      const p = await admin.pods('default').get('shell');
      const st = ((p.status?.ephemeralContainerStatuses ?? []) as { name: string; state: Record<string, unknown> }[]).find((s) => s.name === name);
      return st?.state.terminated ? st : undefined;
    }, 20_000, `${name} terminated`);

    it('kubectl debug runs an ephemeral container: status, logs, and -i with stdin', async () => {
      const r = await run(kubectl.bin, {}, ['debug', 'shell', '--image=busybox', '--profile=general', '--container=dbg', '--target=sh', '--', 'sh', '-c', 'echo from-debug']);
      expect(r.code).toBe(0);
      expect(await ephemeral('dbg')).toMatchObject({ ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
      expect((await run(kubectl.bin, {}, ['logs', 'shell', '-c', 'dbg'])).stdout).toBe('from-debug\n');
      const i = await run(kubectl.bin, {}, ['debug', '-i', 'shell', '--image=busybox', '--profile=general', '--container=dbg2', '--', 'sh'], 'echo interactive-$((40+2))\nexit 0\n');
      expect(i.stdout).toContain('interactive-42');
      await ephemeral('dbg2');
      const described = (await run(kubectl.bin, {}, ['describe', 'pod', 'shell'])).stdout;
      expect(described).toMatch(/Ephemeral Containers:\s+dbg:/);
    }, 60_000);

    it('ephemeral containers are only added: changes, removals and forbidden fields are refused as upstream', async () => {
      const pods = admin.pods('default');
      const current = (await pods.get('shell')).spec!.ephemeralContainers as Record<string, unknown>[];
      const refused = async (ephemeralContainers: unknown[]): Promise<string> => {
        const err = await pods.patch('shell', 'merge', { spec: { ephemeralContainers } }, { subresource: 'ephemeralcontainers' }).then(() => undefined, (e: Error) => e);
        return err?.message ?? 'accepted';
      };
      expect(await refused([{ ...current[0], image: 'nginx' }, ...current.slice(1)])).toContain('spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be changed');
      expect(await refused(current.slice(1))).toContain('existing ephemeral containers "dbg" may not be removed');
      const added = await refused([...current, { name: 'x', image: 'busybox', ports: [{ containerPort: 80 }], targetContainerName: 'nope' }]);
      expect(added).toContain('spec.ephemeralContainers[2].ports: Forbidden: cannot be set for an Ephemeral Container');
      expect(added).toContain('spec.ephemeralContainers[2].targetContainerName: Not found: "nope"');
      expect(await refused([...current, { name: 'sh', image: 'busybox' }])).toContain('spec.ephemeralContainers[2].name: Duplicate value: "sh"');
      // a plain update may not touch them either
      const plain = await pods.patch('shell', 'merge', { spec: { ephemeralContainers: [...current, { name: 'y', image: 'busybox' }] } }).then(() => 'accepted', (e: Error) => e.message);
      expect(plain).toContain('pod updates may not change fields');
    });

    it('pods/proxy and services/proxy reach the pod over HTTP, with kubectl get --raw', async () => {
      const raw = (path: string): Promise<{ code: number; stdout: string; stderr: string }> => run(kubectl.bin, {}, ['get', '--raw', path]);
      // the port defaults to the pod's first container port
      expect((await raw('/api/v1/namespaces/default/pods/nginx/proxy/')).stdout).toContain('Welcome to nginx!');
      expect((await raw(`/api/v1/namespaces/default/pods/http:nginx:${nginxPort}/proxy/`)).stdout).toContain('Welcome to nginx!');
      expect((await raw('/api/v1/namespaces/default/pods/a:b:c:d/proxy/')).stderr).toContain('invalid pod request "a:b:c:d"');
      const closed = await freePort();
      // in Go's words, as upstream's transport has them
      expect((await raw(`/api/v1/namespaces/default/pods/nginx:${closed}/proxy/`)).stderr).toMatch(new RegExp(`ServiceUnavailable.*error trying to reach service: dial tcp [0-9.]+:${closed}: connect: connection refused`));

      const ip = (await admin.pods('default').get('nginx')).status!.podIP as string;
      await admin.resource<KubeObject>({ group: '', version: 'v1', resource: 'services', namespaced: true, kind: 'Service' }, 'default').create({
        apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ name: 'http', port: 80, targetPort: nginxPort }] },
      } as KubeObject);
      // a selector-less Service: its Endpoints decide, and there are none yet
      expect((await raw('/api/v1/namespaces/default/services/web:80/proxy/')).stderr).toContain('endpoints "web" not found');
      await admin.resource<KubeObject>({ group: '', version: 'v1', resource: 'endpoints', namespaced: true, kind: 'Endpoints' }, 'default').create({
        apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web' }, subsets: [{ addresses: [{ ip, targetRef: { kind: 'Pod', namespace: 'default', name: 'nginx' } }], ports: [{ name: 'http', port: nginxPort }] }],
      } as KubeObject);
      for (const name of ['web:80', 'web:http', 'http:web:http']) {
        expect((await raw(`/api/v1/namespaces/default/services/${name}/proxy/`)).stdout).toContain('Welcome to nginx!');
      }
      // without the trailing slash: a redirect below /proxy/, as upstream
      const res = await api.api('GET', '/api/v1/namespaces/default/services/web:80/proxy');
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe('/api/v1/namespaces/default/services/web:80/proxy/');
    }, 60_000);

    it('nodes/proxy reaches the kubelet\'s own endpoints as the apiserver, with kubectl get --raw', async () => {
      const raw = (path: string): Promise<{ code: number; stdout: string; stderr: string }> => run(kubectl.bin, {}, ['get', '--raw', path]);
      expect((await raw(`/api/v1/nodes/${NODE}/proxy/healthz`)).stdout).toBe('ok');
      const pods = JSON.parse((await raw(`/api/v1/nodes/${NODE}/proxy/pods`)).stdout) as { kind: string; items: KubeObject[] };
      expect(pods.kind).toBe('PodList');
      expect(pods.items.map((p) => p.metadata!.name)).toEqual(expect.arrayContaining(['shell', 'nginx']));
      expect((await raw(`/api/v1/nodes/${NODE}/proxy/containerLogs/default/shell/sh`)).code).toBe(0);
      expect((await raw(`/api/v1/nodes/${NODE}/proxy/metrics`)).stdout).toContain(`kubelet_node_name{node="${NODE}"} 1`);
      // the figures metrics-server reads: the Summary, then the resource metrics (usageNanoCores needs a second read)
      const summary = JSON.parse((await raw(`/api/v1/nodes/${NODE}/proxy/stats/summary`)).stdout);
      expect(summary.node).toMatchObject({ nodeName: NODE, cpu: { usageCoreNanoSeconds: expect.any(Number) }, memory: { workingSetBytes: expect.any(Number) } });
      expect(summary.node.memory.workingSetBytes).toBeGreaterThan(0);
      const shell = (summary.pods as { podRef: { name: string }; containers: { name: string; memory: { workingSetBytes: number } }[] }[]).find((p) => p.podRef.name === 'shell');
      expect(shell?.containers.map((c) => c.name)).toEqual(['sh']);
      expect(shell!.containers[0]!.memory.workingSetBytes).toBeGreaterThan(0);
      // the machine's interfaces (/proc/net/dev, without lo), the root dir's filesystem, the pod's volumes (du)
      expect(summary.node.network.interfaces.length).toBeGreaterThan(0);
      expect(summary.node.network.interfaces.map((i: { name: string }) => i.name)).not.toContain('lo');
      expect(summary.node.fs).toMatchObject({ capacityBytes: expect.any(Number), availableBytes: expect.any(Number), usedBytes: expect.any(Number), inodes: expect.any(Number), inodesFree: expect.any(Number) });
      expect(summary.node.runtime.imageFs.capacityBytes).toBe(summary.node.fs.capacityBytes);
      expect(summary.node.rlimit.maxpid).toBeGreaterThan(0);
      const full = (summary.pods as Record<string, any>[]).find((p) => p.podRef.name === 'shell')!;
      expect(full.network.interfaces.length).toBeGreaterThan(0);
      const token = (full.volume as { name: string; usedBytes: number; inodesUsed: number }[]).find((v) => v.name.startsWith('kube-api-access-'));
      expect(token?.usedBytes).toBeGreaterThan(0);
      expect(token?.inodesUsed).toBeGreaterThan(3); // the dir, ..data, the timestamped dir and its files
      expect(full.containers[0].logs).toMatchObject({ usedBytes: expect.any(Number), inodesUsed: 1 });
      expect(full.containers[0].rootfs).toMatchObject({ usedBytes: expect.any(Number), capacityBytes: summary.node.fs.capacityBytes });
      expect(full['ephemeral-storage'].usedBytes).toBe(full.containers[0].logs.usedBytes + full.containers[0].rootfs.usedBytes);
      const resource = (await raw(`/api/v1/nodes/${NODE}/proxy/metrics/resource`)).stdout;
      expect(resource).toMatch(/^container_memory_working_set_bytes\{container="sh",namespace="default",pod="shell"\} [1-9]\d* \d+$/m);
      expect(resource).toMatch(/^node_cpu_usage_seconds_total [\d.e+-]+ \d+$/m);
      expect(resource).toContain('scrape_error 0');
      // the debugging handlers: the runtime's own view of its pods, and the node's logs directory
      const running = JSON.parse((await raw(`/api/v1/nodes/${NODE}/proxy/runningpods/`)).stdout) as { kind: string; items: KubeObject[] };
      expect(running.kind).toBe('PodList');
      expect(running.items.find((p) => p.metadata!.name === 'shell')).toMatchObject({ metadata: { namespace: 'default', creationTimestamp: null }, spec: { containers: [{ name: 'sh', resources: {} }] }, status: {} });
      expect((await raw(`/api/v1/nodes/${NODE}/proxy/logs/`)).stdout).toBe('<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n<a href="pods/">pods/</a>\n<a href="syslog">syslog</a>\n</pre>\n');
      expect((await raw(`/api/v1/nodes/${NODE}/proxy/logs/syslog`)).stdout).toBe('booted\n');
      expect((await raw(`/api/v1/nodes/${NODE}/proxy/logs/..%2f..%2fetc%2fpasswd`)).stderr).toContain('NotFound');
      expect((await raw('/api/v1/nodes/nope/proxy/healthz')).stderr).toContain('nodes "nope" not found');
      expect((await raw(`/api/v1/nodes/a:${NODE}:1:2/proxy/healthz`)).stderr).toContain(`invalid node request "a:${NODE}:1:2"`);
    }, 30_000);
  });
});
