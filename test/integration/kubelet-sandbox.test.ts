// Pod sandboxes on the process runtime (root on Linux): each pod gets a network namespace on the node's bridge with
// an address from the podCIDR, its own hostname, resolv.conf and PID namespace; pods reach each other and the node
// reaches them; deleting a pod removes its namespace and frees its address. Skipped where sandboxes are impossible.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import { netnsName, PodSandboxes, ProcessRuntime, sandboxesUnavailable } from '../../pkg/kubelet/index.js';
import { parseCidr } from '../../pkg/kubelet/sandbox/cidr.js';
import { NodeBridge } from '../../pkg/kubelet/sandbox/netns.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { createBound, eventually, nodeClient, pod, publishRootCa, removeRootDir, type RunningKubelet, startKubelet } from './kubelet-support.js';

const NODE = 'sbx-node';
const CIDR = '10.251.7.0/24';
const unavailable = await sandboxesUnavailable();
if (unavailable) console.warn(`kubelet-sandbox tests skipped: ${unavailable}`);

const netnsList = (): string => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });

describe.skipIf(unavailable !== undefined)('kubelet: pod sandboxes on the process runtime', () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let runtime: ProcessRuntime;
  let sandboxes: PodSandboxes;
  let rootDir = '';

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    rootDir = await mkdtemp(join(tmpdir(), 'mini-kube-sandbox-'));
    await publishRootCa(api, admin);
    sandboxes = new PodSandboxes({ podCidr: CIDR, logger: pino({ level: 'silent' }) });
    runtime = new ProcessRuntime({ rootDir, hostIp: '127.0.0.1', sandboxes });
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1', podCidr: CIDR, runtimeFor: () => runtime,
      dns: { clusterDns: ['10.96.0.10'], clusterDomain: 'cluster.local', host: { servers: ['192.0.2.53'], searches: ['example.test'], options: [] } },
      server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1' },
    });
    await kubelet.host.whenRegistered();
  }, 30_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
    if (rootDir) await removeRootDir(rootDir);
  });

  const running = (name: string): Promise<KubeObject> => eventually(async () => {
    const p = await admin.pods('default').get(name);
    return p.status?.phase === 'Running' ? p : undefined;
  }, 20_000, `${name} Running`);
  const containerId = (p: KubeObject): string => ((p.status?.containerStatuses as { containerID: string }[])[0]!.containerID).replace(/^process:\/\//, '');
  const logs = (name: string, want: string): Promise<string> => eventually(async () => {
    const r = await api.kubectl('logs', name);
    return r.stdout.includes(want) ? r.stdout : undefined;
  }, 10_000, `${name} logs with ${want}`);

  it('registers the podCIDR; two pods get distinct addresses from it, reach each other and are reached from the node', async () => {
    const node = await admin.nodes().get(NODE);
    expect(node.spec).toMatchObject({ podCIDR: CIDR, podCIDRs: [CIDR] });
    await createBound(admin, pod('web'), NODE);
    await createBound(admin, pod('client', { spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'hostname; cat /etc/resolv.conf; grep NSpid /proc/self/status; exec sleep 300'] }] } }), NODE);
    const [web, client] = await Promise.all([running('web'), running('client')]);
    const webIp = web.status!.podIP as string;
    const clientIp = client.status!.podIP as string;
    expect(webIp).toMatch(/^10\.251\.7\.\d+$/);
    expect(clientIp).toMatch(/^10\.251\.7\.\d+$/);
    expect(webIp).not.toBe(clientIp);
    expect(webIp).not.toBe('10.251.7.1'); // the bridge's
    expect(client.status!.podIPs).toEqual([{ ip: clientIp }]);

    // the node reaches the pod: nginx listens on port 80 of the pod's own network
    const res = await eventually(async () => { try { return await fetch(`http://${webIp}/`); } catch { return undefined; } }, 10_000, 'nginx on the pod IP');
    expect(await res.text()).toContain('Welcome to nginx!');

    // pod to pod: a command in the client's namespaces fetches from the web pod, which logs the client's address
    const got = await runtime.execSync(containerId(client), [process.execPath, '-e', `fetch('http://${webIp}/').then((r) => r.text()).then((t) => console.log(t.includes('nginx') ? 'ok' : t))`], 10);
    expect(got).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    expect(await logs('web', `${clientIp} - - [`)).toContain('"GET / HTTP/1.1" 200');
    // the pod's address is on its eth0, not on the node
    const ipAddr = await runtime.execSync(containerId(client), ['ip', '-4', '-o', 'addr', 'show', 'eth0'], 5);
    expect(ipAddr.stdout).toContain(`inet ${clientIp}/24`);
  });

  it('gives the pod its hostname, resolv.conf (ClusterFirst) and a PID namespace shared with the pause process', async () => {
    const out = await logs('client', 'NSpid');
    const [hostname, ...rest] = out.trim().split('\n');
    expect(hostname).toBe('client');
    expect(rest.slice(0, 3)).toEqual([
      'search default.svc.cluster.local svc.cluster.local cluster.local example.test',
      'nameserver 10.96.0.10',
      'options ndots:5',
    ]);
    // its /proc is the pod's PID namespace's, as a container's: one PID, that namespace's
    expect(rest[3]).toMatch(/^NSpid:\s+\d+$/);
    // kubectl exec runs in the pod's namespaces too
    const exec = await api.kubectl('exec', 'client', '--', 'sh', '-c', 'hostname; ip -4 -o addr show eth0 | wc -l');
    expect(exec.stdout).toBe('client\n1\n');
    // the pause is PID 1 there, and the pod's processes are all /proc shows (not the node's)
    const pid = await runtime.execSync(containerId(await admin.pods('default').get('client')), ['cat', '/proc/1/cmdline'], 5);
    expect(pid.stdout).toContain('pause');
    const ps = await runtime.execSync(containerId(await admin.pods('default').get('client')), ['sh', '-c', 'echo $$; ls /proc | grep -c "^[0-9]"'], 5);
    const [self, count] = ps.stdout.trim().split('\n').map(Number);
    // a PID of the pod's namespace: its pause, containers and the mounts that set their roots up took the first ones
    expect(self).toBeLessThan(1_000);
    expect(count).toBeLessThan(10);
    // as upstream's pause, PID 1 reaps what the pod's processes orphan: no zombie once an orphan exits
    const orphans = await runtime.execSync(containerId(await admin.pods('default').get('client')),
      ['sh', '-c', '(sleep 0.1 &); sleep 0.8; grep -l "^State:.Z" /proc/[0-9]*/status | wc -l'], 5);
    expect(orphans.stdout.trim()).toBe('0');
    // /stats/summary's pod network: the interfaces of the sandbox's namespace (eth0, which carried the fetch above)
    const client = await admin.pods('default').get('client');
    const [sandbox] = runtime.listPodSandboxes(client.metadata!.uid!).filter((sb) => sb.state === 'ready');
    const interfaces = runtime.interfaceStats(sandbox!.id);
    expect(interfaces.map((i) => i.name)).toEqual(['eth0']);
    expect(interfaces[0]!.rxBytes).toBeGreaterThan(0);
  });

  it('a container without volumes and an ephemeral container (kubectl debug) see the pod\'s processes in /proc, not the node\'s', async () => {
    await createBound(admin, pod('bare', { spec: { automountServiceAccountToken: false, containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '300'] }] } }), NODE);
    const bare = await running('bare');
    expect(bare.spec!.volumes ?? []).toEqual([]);
    const procs = 'ls /proc | grep -c "^[0-9]"';
    const inBare = await api.kubectl('exec', 'bare', '--', 'sh', '-c', procs);
    expect(Number(inBare.stdout.trim())).toBeLessThan(10);
    const debug = await api.kubectl('debug', 'bare', '--image=busybox', '--target=sh', '--container=dbg', '--', 'sleep', '300');
    expect(debug.code, debug.stderr).toBe(0);
    await eventually(async () => {
      const p = await admin.pods('default').get('bare');
      return (p.status?.ephemeralContainerStatuses as { state?: { running?: unknown } }[] | undefined)?.[0]?.state?.running;
    }, 20_000, 'the debug container running');
    const inDebug = await api.kubectl('exec', 'bare', '-c', 'dbg', '--', 'sh', '-c', `${procs}; cat /proc/1/cmdline`);
    const [count, pid1] = inDebug.stdout.trim().split('\n');
    expect(Number(count)).toBeLessThan(10);
    expect(pid1).toContain('pause');
    await admin.pods('default').delete('bare', { gracePeriodSeconds: 0 });
  });

  it('writes the pod\'s /etc/hosts as upstream\'s kubelet: its FQDN with a subdomain, and its hostAliases', async () => {
    await createBound(admin, pod('aliased', {
      spec: {
        hostname: 'db-0', subdomain: 'db', hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }],
        containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'exec sleep 300'] }],
      },
    }), NODE);
    const p = await running('aliased');
    const hosts = await api.kubectl('exec', 'aliased', '--', 'cat', '/etc/hosts');
    expect(hosts.stdout.split('\n').slice(7)).toEqual([
      `${p.status!.podIP}\tdb-0.db.default.svc.cluster.local\tdb-0`, '', '# Entries added by HostAliases.', '10.1.2.3\tfoo.local\tbar.local', '',
    ]);
    await admin.pods('default').delete('aliased', { gracePeriodSeconds: 0 });
  });

  it('a hostNetwork pod keeps the node\'s network and IP, and the node\'s /etc/hosts with its hostAliases added', async () => {
    await createBound(admin, pod('hostnet', { spec: {
      hostNetwork: true, hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }],
      containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'exec sleep 300'] }],
    } }), NODE);
    const p = await running('hostnet');
    expect(p.status!.podIP).toBe('127.0.0.1');
    expect(runtime.listPodSandboxes(p.metadata!.uid).map((s) => s.ip)).toEqual(['127.0.0.1']);
    const hosts = await api.kubectl('exec', 'hostnet', '--', 'cat', '/etc/hosts');
    const node = await readFile('/etc/hosts', 'utf8');
    expect(hosts.stdout).toBe(`# Kubernetes-managed hosts file (host network).\n${node}\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n`);
    expect(node).not.toContain('foo.local');
  });

  it('stopping a container delivers SIGTERM to its process (not to the nsenter wrapper), which exits with its own code', async () => {
    await createBound(admin, pod('trap', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'trap "echo got TERM; exit 3" TERM; echo ready; while true; do sleep 0.1; done'] }] } }), NODE);
    const p = await running('trap');
    await logs('trap', 'ready');
    const id = containerId(p);
    await runtime.stopContainer(id, 10);
    expect(runtime.containerStatus(id)).toMatchObject({ state: 'exited', exitCode: 3, reason: 'Error' });
    expect(await logs('trap', 'got TERM')).toBe('ready\ngot TERM\n');
  });

  it('a container ignoring SIGTERM is SIGKILLed after the grace period (the whole process group)', async () => {
    await createBound(admin, pod('stubborn', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'trap "" TERM; echo ready; while true; do sleep 0.1; done'] }] } }), NODE);
    const id = containerId(await running('stubborn'));
    await logs('stubborn', 'ready');
    const t0 = Date.now();
    await runtime.stopContainer(id, 1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_000);
    expect(runtime.containerStatus(id)).toMatchObject({ state: 'exited', exitCode: 137 });
  });

  it.skipIf(!existsSync('/usr/bin/script'))('a shell on a tty (exec -it, a tty container) leads its terminal inside the pod\'s PID namespace: its own exit code, and SIGKILL reaches it', async () => {
    await createBound(admin, pod('tty', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', stdin: true, tty: true, command: ['sh'] }] } }), NODE);
    const id = containerId(await running('tty'));
    // kubectl wants a terminal for -t: util-linux `script` gives it one, fed from a pipe
    const cmd = ['kubectl', '--kubeconfig', api.kubeconfig, 'exec', '-it', 'tty', '--', 'sh'].map((a) => `'${a}'`).join(' ');
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      const child = execFile('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { timeout: 60_000 }, (err, stdout) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout });
      });
      child.stdin!.write('echo "sum=$((40+2))"\n');
      setTimeout(() => child.stdin!.end('exit 7\n'), 1500);
    });
    expect(r.out).toContain('sum=42');
    expect(r.out).not.toContain('Cannot set tty process group');
    expect(r.code).toBe(7);
    // an interactive shell ignores SIGTERM: the container's own process is SIGKILLed after the grace period
    await runtime.stopContainer(id, 1);
    expect(runtime.containerStatus(id)).toMatchObject({ state: 'exited', exitCode: 137 });
    await admin.pods('default').delete('tty', { gracePeriodSeconds: 0 });
  });

  it('frees what a sandbox of an earlier run left behind once no process holds its namespace', async () => {
    const id = 'feedface00000000000000000000000000000000000000000000000000000000';
    const dir = join('/var/lib/mini-kube/networks', sandboxes.bridge.name);
    const ip = '10.251.7.250';
    await writeFile(join(dir, ip), id);
    await utimes(join(dir, ip), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    execFileSync('ip', ['netns', 'add', netnsName(id)]);
    await sandboxes.reclaim();
    expect(netnsList()).not.toContain(netnsName(id));
    expect((await sandboxes.ipam.list()).has(ip)).toBe(false);
  });

  it('kubectl port-forward reaches a server listening only on the pod\'s localhost (inside its namespace)', async () => {
    const server = `require('node:http').createServer((q, s) => s.end('inside ' + require('node:os').hostname())).listen(8081, '127.0.0.1', () => console.log('up'))`;
    await createBound(admin, pod('local-only', { spec: { containers: [{ name: 'srv', image: 'busybox', command: [process.execPath, '-e', server] }] } }), NODE);
    await running('local-only');
    await logs('local-only', 'up');
    const child = spawn('kubectl', ['--kubeconfig', api.kubeconfig, 'port-forward', 'pod/local-only', '0:8081', '0:8082']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    try {
      const [open, closed] = await eventually(async () => {
        const ports = [...out.matchAll(/Forwarding from 127\.0\.0\.1:(\d+) -> (\d+)/g)];
        return ports.length === 2 ? ports.map((m) => m[1]) : undefined;
      }, 20_000, `port-forward ready: ${out}`);
      const res = await fetch(`http://127.0.0.1:${open}/`);
      expect(await res.text()).toBe('inside local-only');
      // Nothing listens on 8082 in the pod: kubectl reports the kubelet's error for that connection.
      await fetch(`http://127.0.0.1:${closed}/`).catch(() => undefined);
      await eventually(async () => out.includes('connection refused'), 10_000, `port-forward error: ${out}`);
      expect(out).toContain('inside namespace');
    } finally {
      child.kill('SIGINT');
    }
    await admin.pods('default').delete('local-only', { gracePeriodSeconds: 0 });
  });

  it('a pod whose pause process is killed gets a new sandbox (SandboxChanged, a new address) and its container restarts in it', async () => {
    const created = await createBound(admin, pod('phoenix', { spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '300'] }] } }), NODE);
    const uid = created.metadata!.uid!;
    const before = await running('phoenix');
    const [sandbox] = runtime.listPodSandboxes(uid);
    const readySince = (p: KubeObject): number => Date.parse((p.status!.conditions as { type: string; lastTransitionTime: string }[]).find((c) => c.type === 'PodReadyToStartContainers')!.lastTransitionTime);
    // condition times are in whole seconds: the next one is seen to be later
    await eventually(async () => Date.now() >= readySince(before) + 1_000, 2_000, 'a second later');
    // the pause's pid, as the runtime recorded it
    const { pod: { pausePid } } = JSON.parse(await readFile(join(rootDir, 'runtime', 'sandboxes', `${sandbox!.id}.json`), 'utf8')) as { pod: { pausePid: number } };
    process.kill(pausePid, 'SIGKILL');
    const after = await eventually(async () => {
      const p = await admin.pods('default').get('phoenix');
      const c = (p.status?.containerStatuses as { restartCount: number; state: { running?: unknown } }[] | undefined)?.[0];
      return p.status?.podIP !== before.status!.podIP && c?.restartCount === 1 && c.state.running ? p : undefined;
    }, 20_000, 'phoenix running again in a new sandbox');
    const sandboxesNow = runtime.listPodSandboxes(uid);
    expect(sandboxesNow.map((s) => `${s.config.attempt}:${s.state}`).sort()).toEqual(['0:notready', '1:ready']);
    expect(after.status!.podIP).toBe(sandboxesNow.find((s) => s.state === 'ready')!.ip);
    // the dead sandbox's network is gone with it
    expect(netnsList()).not.toContain(netnsName(sandbox!.id));
    expect((after.status!.conditions as { type: string; status: string }[]).find((c) => c.type === 'PodReadyToStartContainers')!.status).toBe('True');
    expect(readySince(after)).toBeGreaterThan(readySince(before));
    const events = await eventually(async () => {
      const list = (await admin.resource(Resources.events, 'default').list({ fieldSelector: 'involvedObject.name=phoenix' })).items;
      return list.some((e) => e.reason === 'SandboxChanged') ? list : undefined;
    }, 10_000, 'SandboxChanged');
    expect(events.find((e) => e.reason === 'SandboxChanged')).toMatchObject({ type: 'Normal', message: 'Pod sandbox changed, it will be killed and re-created.' });
    await admin.pods('default').delete('phoenix', { gracePeriodSeconds: 0 });
    await eventually(async () => runtime.listPodSandboxes(uid).length === 0, 20_000, 'phoenix\'s sandboxes removed');
  }, 40_000);

  it('after its pause is killed, every init container runs again in order before the app container, each with a log of its new run only', async () => {
    const step = (name: string) => ({ name, image: 'busybox', command: ['sh', '-c', `echo ${name} >> /data/order; echo ran ${name}`], volumeMounts: [{ name: 'data', mountPath: '/data' }] });
    const created = await createBound(admin, pod('reinit', { spec: {
      initContainers: [step('i1'), step('i2'), step('i3')],
      containers: [{ ...step('c'), command: ['sh', '-c', 'echo c >> /data/order; exec sleep 300'] }],
      volumes: [{ name: 'data', emptyDir: {} }],
    } }), NODE);
    // deleted however the test ends: the last test waits for every pod to go
    onTestFinished(() => admin.pods('default').delete('reinit', { gracePeriodSeconds: 0 }).then(() => undefined));
    await running('reinit');
    const [sandbox] = runtime.listPodSandboxes(created.metadata!.uid!);
    const { pod: { pausePid } } = JSON.parse(await readFile(join(rootDir, 'runtime', 'sandboxes', `${sandbox!.id}.json`), 'utf8')) as { pod: { pausePid: number } };
    process.kill(pausePid, 'SIGKILL');
    const after = await eventually(async () => {
      const p = await admin.pods('default').get('reinit');
      const c = (p.status?.containerStatuses as { restartCount: number; state: { running?: unknown } }[] | undefined)?.[0];
      return c?.restartCount === 1 && c.state.running ? p : undefined;
    }, 20_000, 'reinit running again in a new sandbox');
    // the emptyDir outlives the sandbox: the second round ran in the same order as the first
    const order = await api.kubectl('exec', 'reinit', '--', 'cat', '/data/order');
    expect(order.stdout.trim().split('\n')).toEqual(['i1', 'i2', 'i3', 'c', 'i1', 'i2', 'i3', 'c']);
    // as upstream's: the first init container's count goes on, the others' (purged with their logs) start over
    expect((after.status!.initContainerStatuses as { name: string; restartCount: number; state: { terminated?: { reason: string } } }[])
      .map((c) => `${c.name}:${c.restartCount}:${c.state.terminated?.reason}`)).toEqual(['i1:1:Completed', 'i2:0:Completed', 'i3:0:Completed']);
    expect((await api.kubectl('logs', 'reinit', '-c', 'i2')).stdout).toBe('ran i2\n');
  }, 40_000);

  it('deleting the pods removes their network namespaces and frees their addresses (a finished pod\'s already)', async () => {
    const trap = await admin.pods('default').get('trap');
    // the kubelet stops a finished pod's sandbox (CRI StopPodSandbox), which gives its address back
    await eventually(async () => !(await sandboxes.ipam.list()).has(trap.status!.podIP as string), 10_000, 'the finished pod\'s address freed');
    await admin.pods('default').delete('stubborn', { gracePeriodSeconds: 0 });
    const pods = await Promise.all(['web', 'client'].map((n) => admin.pods('default').get(n)));
    const ids = pods.flatMap((p) => runtime.listPodSandboxes(p.metadata!.uid).map((s) => s.id));
    const ips = pods.map((p) => p.status!.podIP as string);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(netnsList()).toContain(netnsName(id));
    for (const ip of ips) expect((await sandboxes.ipam.list()).has(ip)).toBe(true);
    for (const p of [...pods, trap]) await admin.pods('default').delete(p.metadata!.name!, { gracePeriodSeconds: 0 });
    await eventually(async () => (await admin.pods('default').list()).items.every((p) => p.metadata!.name === 'hostnet'), 20_000, 'pods gone');
    await eventually(async () => runtime.listPodSandboxes().length === 1, 10_000, 'sandboxes removed');
    const list = netnsList();
    for (const id of ids) expect(list).not.toContain(netnsName(id));
    const held = await sandboxes.ipam.list();
    for (const ip of ips) expect(held.has(ip)).toBe(false);
  });

  it('a pod range\'s bridge takes its range back from a bridge nothing uses, and leaves other links\' addresses alone', async () => {
    const bridge = new NodeBridge(parseCidr('10.251.8.0/24'), pino({ level: 'silent' }));
    const stale = 'mk-stale-test';
    const other = 'tst-overlap';
    const ip = (...args: string[]): string => execFileSync('ip', args, { encoding: 'utf8' });
    onTestFinished(() => { for (const l of [stale, other, bridge.name]) try { ip('link', 'del', l); } catch { /* gone */ } });
    // what a cluster gone before left: a bridge of its node with the range's gateway, no port, its route first
    ip('link', 'add', stale, 'type', 'bridge');
    ip('addr', 'add', '10.251.8.1/24', 'dev', stale);
    ip('link', 'set', stale, 'up');
    ip('link', 'add', other, 'type', 'bridge'); // not a mini-kube link: the host's, whatever it is
    ip('addr', 'add', '10.251.8.200/32', 'dev', other);
    expect(ip('route', 'get', '10.251.8.9')).toContain(`dev ${stale}`);
    await bridge.ensure();
    expect(bridge.name).toBe('mk-0afb0800-24');
    expect(ip('route', 'get', '10.251.8.9')).toContain(`dev ${bridge.name}`);
    expect(ip('-4', '-o', 'addr', 'show', 'dev', stale)).toBe('');
    expect(ip('-4', '-o', 'addr', 'show', 'dev', other)).toContain('10.251.8.200/32');
  });
});
