// The process runtime: containers are real local processes (command, args, env, exit codes, SIGTERM on delete),
// their output is in CRI log files, and `kubectl logs` reaches it through the apiserver's pods/log proxy to the
// kubelet's HTTPS server.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import { issueCertificate } from '../../pkg/pki/index.js';
import { loadKey } from '../../pkg/pki/keys.js';
import { x509 } from '../../pkg/pki/x509.js';
import { ProcessRuntime } from '../../pkg/kubelet/index.js';
import { freePort } from '../bench/processes.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';
import { condition, createBound, eventually, nodeClient, pod, publishRootCa, removeRootDir, type RunningKubelet, startKubelet } from './kubelet-support.js';

const NODE = 'node-proc';
/** Volumes at their mountPath, read-only binds (and kubectl exec inside them) need a mount namespace of the container's own: root (CAP_SYS_ADMIN). */
const notRoot = process.getuid?.() !== 0;
if (notRoot) console.warn('kubelet-process: the mount test is skipped: it needs root to make mount namespaces');

describe('kubelet: process runtime and kubectl logs', () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let rootDir = '';
  let runtime: ProcessRuntime;

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    rootDir = await mkdtemp(join(tmpdir(), 'mini-kube-kubelet-'));
    await publishRootCa(api, admin);
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1',
      runtimeFor: (_i, _n, hostIp) => (runtime = new ProcessRuntime({ rootDir, hostIp })),
      // denials kept 1 s (upstream's default is 30 s), so a grant made by a test shows at once
      server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1', cacheUnauthorizedMs: 1_000, tokenWebhook: true },
    });
    await kubelet.host.whenRegistered();
  }, 30_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
    if (rootDir) await removeRootDir(rootDir);
  });

  const get = (name: string): Promise<KubeObject> => admin.pods('default').get(name);
  const phase = (name: string, want: string): Promise<KubeObject> =>
    eventually(async () => { const p = await get(name); return p.status?.phase === want ? p : undefined; }, 15_000, `${name} ${want}`);

  it('runs a busybox command as a process; kubectl logs shows its stdout and stderr', async () => {
    await createBound(admin, pod('echo', {
      spec: { containers: [{ name: 'sh', image: 'busybox:1.36', command: ['sh', '-c', 'echo "hello $GREETING"; echo oops >&2; exec sleep 60'], env: [{ name: 'GREETING', value: 'world' }] }] },
    }), NODE);
    await phase('echo', 'Running');
    const node = await admin.nodes().get(NODE);
    expect((node.status?.daemonEndpoints as any).kubeletEndpoint.Port).toBeGreaterThan(0);
    // the images the node holds, as upstream's status setter lists them: digest then tag, with their size
    const images = await eventually(async () => {
      const list = (await admin.nodes().get(NODE)).status?.images as { names: string[]; sizeBytes: number }[] | undefined;
      return list?.find((i) => i.names.includes('docker.io/library/busybox:1.36'));
    }, 10_000, 'busybox in the node\'s images');
    expect(images.names).toEqual([expect.stringMatching(/^docker\.io\/library\/busybox@sha256:[0-9a-f]{64}$/), 'docker.io/library/busybox:1.36']);
    expect(images.sizeBytes).toBeGreaterThan(0);
    // cAdvisor's series through the apiserver's node proxy, as Prometheus' kubelet job scrapes them
    const cadvisor = (await api.kubectl('get', '--raw', `/api/v1/nodes/${NODE}/proxy/metrics/cadvisor`)).stdout;
    expect(cadvisor).toMatch(/^container_cpu_usage_seconds_total\{container="sh",cpu="total",id="\/kubepods\/besteffort\/pod[0-9a-f-]+\/[0-9a-f]+",image="docker\.io\/library\/busybox:1\.36",name="[0-9a-f]+",namespace="default",pod="echo"\} [0-9.e-]+ \d+$/m);
    const out = await eventually(async () => {
      const r = await api.kubectl('logs', 'echo');
      return r.stdout.includes('oops') ? r : undefined;
    }, 10_000, 'logs');
    expect(out.stdout).toBe('hello world\noops\n');
    const ts = await api.kubectl('logs', 'echo', '--timestamps', '--tail=1');
    // RFC3339Nano: up to nine digits, no trailing zero
    expect(ts.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,8}[1-9])?Z oops\n$/);
    // flags as upstream's parameter codec reads them: only "false" and "0" (any case) are false, so the Python
    // client's "True" counts, at the apiserver and at the kubelet's own server alike
    const tsLine = /^\S+Z oops\n$/;
    expect((await api.kubectl('get', '--raw', '/api/v1/namespaces/default/pods/echo/log?timestamps=True&tailLines=1')).stdout).toMatch(tsLine);
    expect((await api.kubectl('get', '--raw', '/api/v1/namespaces/default/pods/echo/log?timestamps=FALSE&tailLines=1')).stdout).toBe('oops\n');
    expect((await api.kubectl('get', '--raw', `/api/v1/nodes/${NODE}/proxy/containerLogs/default/echo/sh?timestamps=True&tailLines=1`)).stdout).toMatch(tsLine);
    expect((await api.kubectl('logs', 'echo', '-c', 'nope')).stderr).toContain('container nope is not valid for pod echo');
    // log options parsed and validated as upstream's PodLogOptions
    expect((await api.kubectl('get', '--raw', '/api/v1/namespaces/default/pods/echo/log?tailLines=x')).stderr).toContain('Error from server (BadRequest): strconv.ParseInt: parsing "x": invalid syntax');
    expect((await api.kubectl('get', '--raw', '/api/v1/namespaces/default/pods/echo/log?tailLines=-2')).stderr).toContain('PodLogOptions "echo" is invalid: tailLines: Invalid value: -2: must be greater than or equal to 0');
  });

  it('builds the environment: configMap and secret refs, envFrom, fieldRef, $(VAR) in args; a missing ConfigMap waits', async () => {
    await admin.secrets('default').create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { password: Buffer.from('hunter2').toString('base64') } });
    await createBound(admin, pod('envs', {
      spec: {
        containers: [{
          name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo "$(GREETING) $WHO pod=$POD_NAME ns=$POD_NS ip=$POD_IP pw=$PW mode=$CFG_mode"; exec sleep 60'],
          envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cm1' } }],
          env: [
            { name: 'GREETING', value: 'hello' },
            { name: 'WHO', valueFrom: { configMapKeyRef: { name: 'cm1', key: 'who' } } },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'PW', valueFrom: { secretKeyRef: { name: 's1', key: 'password' } } },
          ],
        }],
      },
    }), NODE);
    const waiting = await eventually(async () => {
      const p = await get('envs');
      const w = (p.status?.containerStatuses as any[] | undefined)?.[0]?.state?.waiting;
      return w?.reason === 'CreateContainerConfigError' ? w : undefined;
    }, 10_000, 'CreateContainerConfigError');
    expect(waiting.message).toBe('configmap "cm1" not found');
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { who: 'world', mode: 'fast' } });
    await phase('envs', 'Running');
    const logs = await eventually(async () => { const l = await admin.pods('default').logs('envs'); return l || undefined; }, 10_000, 'envs log');
    expect(logs).toBe('hello world pod=envs ns=default ip=127.0.0.1 pw=hunter2 mode=fast\n');
  });

  it('probes: readiness (exec, httpGet) gates Ready; a failing liveness probe restarts the container', async () => {
    const flag = join(rootDir, 'ready-flag');
    await createBound(admin, pod('probed', {
      spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'], readinessProbe: { exec: { command: ['test', '-f', flag] }, periodSeconds: 1 } }] },
    }), NODE);
    const notReady = await phase('probed', 'Running');
    expect((notReady.status?.containerStatuses as any[])[0]).toMatchObject({ ready: false, started: true });
    expect(condition(notReady, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
    // the node's /metrics/probes counts each run by result, as upstream's prober_probe_total (Running can be
    // reported before the first probe has run: the flag goes once one has failed)
    const probeLines = async (): Promise<string[]> => (await api.kubectl('get', '--raw', `/api/v1/nodes/${NODE}/proxy/metrics/probes`)).stdout.split('\n');
    const count = (probes: string[], result: string): number => Number(probes.find((l) => l.startsWith('prober_probe_total{') && l.includes(`result="${result}"`)
      && l.includes('probe_type="Readiness"') && l.includes('pod="probed"') && l.includes('container="sh"') && l.includes('namespace="default"'))?.split(' ').pop() ?? 0);
    await eventually(async () => count(await probeLines(), 'failed') >= 1, 10_000, 'a failed readiness probe counted');
    await writeFile(flag, '');
    await eventually(async () => condition(await get('probed'), 'Ready')?.status === 'True', 10_000, 'probed Ready');
    const probes = await probeLines();
    expect(count(probes, 'failed')).toBeGreaterThanOrEqual(1);
    expect(count(probes, 'successful')).toBeGreaterThanOrEqual(1);
    expect(probes.some((l) => l.startsWith('prober_probe_duration_seconds_count{') && l.includes('pod="probed"'))).toBe(true);

    const port = await freePort(); // a port nothing listens on (a random one could be taken)
    await createBound(admin, pod('web-probed', {
      spec: { containers: [{ name: 'nginx', image: 'nginx', env: [{ name: 'NGINX_PORT', value: String(port) }], ports: [{ name: 'http', containerPort: port }], readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 1 } }] },
    }), NODE);
    await eventually(async () => condition(await get('web-probed'), 'Ready')?.status === 'True', 20_000, 'web-probed Ready');

    await createBound(admin, pod('unlive', {
      spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'], livenessProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 1 } }] },
    }), NODE);
    await eventually(async () => ((await get('unlive')).status?.containerStatuses as any[] | undefined)?.[0]?.restartCount >= 1, 15_000, 'restart after liveness failure');
    const evs = await eventually(async () => {
      const items = (await admin.events('default').list({ fieldSelector: 'involvedObject.name=unlive' })).items;
      return items.some((e) => e.reason === 'Killing') ? items : undefined;
    }, 10_000, 'Killing event');
    expect(evs.map((e) => `${e.reason}: ${e.message}`)).toEqual(expect.arrayContaining([
      // upstream's exec prober: the output of `false` (none), not its exit code
      'Unhealthy: Liveness probe failed: ', 'Killing: Container sh failed liveness probe, will be restarted',
    ]));
  }, 60_000);

  it('kubectl logs -f follows a running container until it exits; --previous shows the last instance', async () => {
    await createBound(admin, pod('talker', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo one; sleep 1; echo two; sleep 0.5'] }] } }), NODE);
    await phase('talker', 'Running');
    const followed = await api.kubectl('logs', '-f', 'talker');
    expect(followed.stdout).toBe('one\ntwo\n');
    await createBound(admin, pod('again', {
      annotations: {}, spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo run; exit 1'] }] },
    }), NODE);
    await eventually(async () => ((await get('again')).status?.containerStatuses as any[] | undefined)?.[0]?.restartCount >= 1, 15_000, 'a restart');
    const prev = await api.kubectl('logs', 'again', '--previous');
    expect(prev.code, prev.stderr).toBe(0);
    expect(prev.stdout).toBe('run\n');
  });

  it('kubectl logs -f of a quiet container is answered at once and waits for its first line', async () => {
    await createBound(admin, pod('quiet', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'sleep 3; echo late'] }] } }), NODE);
    await phase('quiet', 'Running');
    const res = await request(`${api.url}/api/v1/namespaces/default/pods/quiet/log?follow=true`, { dispatcher: api.agent, headersTimeout: 1_500 });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('late\n');
  });

  it('a restart removes the attempts before the last dead one with their logs (upstream container GC); --previous reads the one kept', async () => {
    const runs = join(rootDir, 'flaky-runs');
    // fails twice, then stays up: attempts 0 and 1 die, 2 runs
    const script = 'echo x >> $F; n=$(wc -l < $F); echo "attempt $n"; [ $n -ge 3 ] && exec sleep 60; exit 1';
    const created = await createBound(admin, pod('flaky', { spec: { containers: [{ name: 'sh', image: 'busybox', env: [{ name: 'F', value: runs }], command: ['sh', '-c', script] }] } }), NODE);
    await eventually(async () => {
      const s = ((await get('flaky')).status?.containerStatuses as any[] | undefined)?.[0];
      return s?.restartCount === 2 && s.state?.running;
    }, 15_000, 'the third attempt running');
    expect((await readdir(join(runtime.podDir(created.metadata!.uid!), 'sh'))).sort()).toEqual(['1.log', '2.log']);
    const prev = await api.kubectl('logs', 'flaky', '--previous');
    expect(prev.code, prev.stderr).toBe(0);
    expect(prev.stdout).toBe('attempt 2\n');
    expect((await api.kubectl('logs', 'flaky')).stdout).toBe('attempt 3\n');
  });

  /** A pod whose container, its postStart and preStop hooks and its SIGTERM write in turn to `file` (5 s of grace). */
  const hooked = (name: string, file: string): KubeObject => pod(name, {
    spec: {
      terminationGracePeriodSeconds: 5,
      containers: [{
        name: 'sh', image: 'busybox', env: [{ name: 'F', value: file }],
        command: ['sh', '-c', 'trap "echo term >> $F; exit 0" TERM; while true; do sleep 0.1; done'],
        lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo poststart >> $F'] } }, preStop: { exec: { command: ['sh', '-c', 'echo prestop >> $F'] } } },
      }],
    },
  });

  it('runs postStart after the start, and preStop before SIGTERM when the pod is deleted', async () => {
    const file = join(rootDir, 'hooks.txt');
    await createBound(admin, hooked('hooked', file), NODE);
    await phase('hooked', 'Running');
    await eventually(async () => (await readFile(file, 'utf8').catch(() => '')).includes('poststart'), 10_000, 'postStart ran');
    await admin.pods('default').delete('hooked');
    await eventually(async () => { try { await get('hooked'); return false; } catch { return true; } }, 15_000, 'hooked gone');
    expect(await readFile(file, 'utf8')).toBe('poststart\nprestop\nterm\n');
  });

  it('materialises volumes (configMap, downwardAPI, emptyDir) under $MINI_KUBE_ROOTFS; a missing ConfigMap is FailedMount', async () => {
    await createBound(admin, pod('vols', {
      spec: {
        volumes: [{ name: 'cfg', configMap: { name: 'vol-cm' } }, { name: 'scratch', emptyDir: {} }, {
          name: 'info', downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }, { path: 'mem', resourceFieldRef: { containerName: 'sh', resource: 'limits.memory', divisor: '1Mi' } }] },
        }],
        containers: [{
          name: 'sh', image: 'busybox', resources: { limits: { memory: '256Mi' } },
          command: ['sh', '-c', 'cat $MINI_KUBE_ROOTFS/etc/cfg/greeting; cat $MINI_KUBE_ROOTFS/etc/info/name; echo; cat $MINI_KUBE_ROOTFS/etc/info/mem; echo; echo x > $MINI_KUBE_ROOTFS/scratch/f && echo wrote; exec sleep 60'],
          volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }, { name: 'info', mountPath: '/etc/info' }, { name: 'scratch', mountPath: '/scratch' }],
        }],
      },
    }), NODE);
    await eventually(async () => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=vols' })).items
      .some((e) => e.reason === 'FailedMount' && e.message === 'MountVolume.SetUp failed for volume "cfg" : configmap "vol-cm" not found'), 10_000, 'FailedMount');
    expect((await get('vols')).status?.phase).toBe('Pending');
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'vol-cm' }, data: { greeting: 'hi from a volume\n' } });
    await phase('vols', 'Running');
    const logs = await eventually(async () => { const l = await admin.pods('default').logs('vols'); return l.includes('wrote') ? l : undefined; }, 10_000, 'vols log');
    expect(logs).toBe('hi from a volume\nvols\n256\nwrote\n');
    const sa = join(rootDir, 'pods', (await get('vols')).metadata!.uid!, 'rootfs', 'sh', 'var/run/secrets/kubernetes.io/serviceaccount');
    expect((await readFile(join(sa, 'token'), 'utf8')).split('.')).toHaveLength(3);
    expect(await readFile(join(sa, 'namespace'), 'utf8')).toBe('default');
    expect(await readFile(join(sa, 'ca.crt'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  it('sets each volume up on its own, before the sandbox: every failure told, no pod IP nor PodReadyToStartContainers until all are there', async () => {
    await createBound(admin, pod('two-missing', {
      spec: {
        volumes: [{ name: 'one', configMap: { name: 'missing-one' } }, { name: 'two', secret: { secretName: 'missing-two' } }],
        containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'exec sleep 60'], volumeMounts: [{ name: 'one', mountPath: '/one' }, { name: 'two', mountPath: '/two' }] }],
      },
    }), NODE);
    const failures = async (): Promise<string[]> => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=two-missing' })).items
      .filter((e) => e.reason === 'FailedMount').map((e) => e.message as string);
    await eventually(async () => (await failures()).length >= 2, 10_000, 'two FailedMount events');
    expect([...new Set(await failures())].sort()).toEqual([
      'MountVolume.SetUp failed for volume "one" : configmap "missing-one" not found', 'MountVolume.SetUp failed for volume "two" : secret "missing-two" not found',
    ]);
    const waiting = await eventually(async () => { const p = await get('two-missing'); return condition(p, 'PodReadyToStartContainers') ? p : undefined; }, 10_000, 'status');
    expect(waiting.status?.podIP).toBeUndefined();
    expect(condition(waiting, 'PodReadyToStartContainers')?.status).toBe('False');
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing-one' }, data: { k: 'v' } });
    await admin.secrets('default').create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'missing-two' }, data: { k: 'dg==' } });
    const running = await phase('two-missing', 'Running');
    expect(running.status?.podIP).toBeDefined();
    await admin.pods('default').delete('two-missing', { gracePeriodSeconds: 0 });
  });

  it('mounts a subPathExpr at the subdirectory its expansion names, made in the volume; a variable without a value is CreateContainerConfigError', async () => {
    await createBound(admin, pod('sub-expr', {
      spec: {
        restartPolicy: 'Never', volumes: [{ name: 'logs', emptyDir: {} }],
        containers: [{
          name: 'sh', image: 'busybox', env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          command: ['sh', '-c', 'echo x > $MINI_KUBE_ROOTFS/mine/f && ls $MINI_KUBE_ROOTFS/all && ls $MINI_KUBE_ROOTFS/all/sub-expr'],
          volumeMounts: [{ name: 'logs', mountPath: '/mine', subPathExpr: '$(POD_NAME)' }, { name: 'logs', mountPath: '/all' }],
        }],
      },
    }), NODE);
    await phase('sub-expr', 'Succeeded');
    expect(await admin.pods('default').logs('sub-expr')).toBe('sub-expr\nf\n');
    await createBound(admin, pod('sub-missing', {
      spec: { volumes: [{ name: 'logs', emptyDir: {} }], containers: [{ name: 'sh', image: 'busybox', command: ['true'], volumeMounts: [{ name: 'logs', mountPath: '/mine', subPathExpr: '$(NOPE)' }] }] },
    }), NODE);
    // ContainerCreating comes first, while the pod's sync prepares the container
    const waiting = await eventually(async () => {
      const w = (await get('sub-missing')).status?.containerStatuses?.[0]?.state?.waiting;
      return w?.reason === 'CreateContainerConfigError' ? w : undefined;
    }, 10_000, 'CreateContainerConfigError');
    expect(waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'missing value for NOPE' });
    await admin.pods('default').delete('sub-missing', { gracePeriodSeconds: 0 });
  });

  it.skipIf(notRoot)('mounts volumes at their mountPath in a root of the container\'s own, read-only where asked (for kubectl exec too), the host untouched; $MINI_KUBE_ROOTFS links stay', async () => {
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ro-cm' }, data: { k: 'v' } });
    // a write at a path in the container (labelled with it), or through its $MINI_KUBE_ROOTFS link (labelled "link:")
    const write = (path: string, via = ''): string => `({ echo x > ${via}${path}; } 2>/dev/null && echo "${via ? 'link:' : ''}${path}: written" || echo "${via ? 'link:' : ''}${path}: refused")`;
    const linked = (path: string): string => write(path, '$MINI_KUBE_ROOTFS');
    // paths no host has: made in the container's root alone
    const dir = `/mk-${Date.now().toString(36)}`;
    const nginxPort = await freePort();
    await createBound(admin, pod('ro', {
      spec: {
        volumes: [{ name: 'scratch', emptyDir: {} }, { name: 'shared', emptyDir: {} }, { name: 'cfg', configMap: { name: 'ro-cm' } }],
        containers: [
          { name: 'w', image: 'busybox', command: ['sh', '-c', `${linked('/shared/f')}; exec sleep 60`], volumeMounts: [{ name: 'shared', mountPath: '/shared' }] },
          // the built-in nginx serves /usr/share/nginx/html as the image does
          { name: 'web', image: 'nginx', env: [{ name: 'NGINX_PORT', value: String(nginxPort) }], volumeMounts: [{ name: 'shared', mountPath: '/usr/share/nginx/html' }] },
          {
            name: 'r', image: 'busybox', workingDir: `/var/tmp${dir}/work`,
            command: ['sh', '-c', `while [ ! -s ${dir}/shared/f ]; do sleep 0.1; done; ${write(`${dir}/scratch/f`)}; ${write(`${dir}/shared/g`)}; ${write('/var/run/cfg/k')}; `
              + `${linked(`${dir}/scratch/f2`)}; ${linked(`${dir}/shared/g2`)}; ${linked('/var/run/cfg/k2')}; ${write('outside')}; pwd; cat ${dir}/shared/f /var/run/cfg/k; echo; `
              + 'cat /var/run/secrets/kubernetes.io/serviceaccount/namespace; echo; exec sleep 60'],
            volumeMounts: [{ name: 'scratch', mountPath: `${dir}/scratch` }, { name: 'shared', mountPath: `${dir}/shared`, readOnly: true }, { name: 'cfg', mountPath: '/var/run/cfg' }],
          },
        ],
      },
    }), NODE);
    await phase('ro', 'Running');
    const logs = await eventually(async () => { const l = await admin.pods('default').logs('ro', { container: 'r' }); return l.includes('default\n') ? l : undefined; }, 10_000, 'ro log');
    expect(logs).toBe(`${dir}/scratch/f: written\n${dir}/shared/g: refused\n/var/run/cfg/k: refused\n`
      + `link:${dir}/scratch/f2: written\nlink:${dir}/shared/g2: refused\nlink:/var/run/cfg/k2: refused\noutside: written\n/var/tmp${dir}/work\nx\nv\ndefault\n`);
    expect(await admin.pods('default').logs('ro', { container: 'w' })).toBe('link:/shared/f: written\n');
    expect(await (await fetch(`http://127.0.0.1:${nginxPort}/f`)).text()).toBe('x\n');
    // the volume has the container's write; the host has neither the paths nor what the container wrote elsewhere
    const uid = (await get('ro')).metadata!.uid!;
    expect(await readFile(join(rootDir, 'pods', uid, 'volumes', 'scratch', 'f'), 'utf8')).toBe('x\n');
    await expect(readFile(`${dir}/scratch/f`)).rejects.toThrow(/ENOENT/);
    await expect(readFile('/var/run/cfg/k')).rejects.toThrow(/ENOENT/);
    await expect(readFile(`/var/tmp${dir}/work/outside`)).rejects.toThrow(/ENOENT/); // the working dir was made in the root
    // kubectl exec runs in the container's mount namespace and root, as runc exec does: it sees the same mounts
    const exec = async (container: string, cmd: string): Promise<string> => {
      const args = ['exec', 'ro', '-c', container, '--', 'sh', '-c', cmd];
      return (await succeeded(api.kubectl(...args), args)).stdout; // a failed exec quotes kubectl, not an empty stdout
    };
    expect(await exec('r', `pwd; cat outside ${dir}/scratch/f2; ${write(`${dir}/shared/h`)}; ${linked('/var/run/cfg/h')}; ${write(`${dir}/scratch/h`)}`))
      .toBe(`/var/tmp${dir}/work\nx\nx\n${dir}/shared/h: refused\nlink:/var/run/cfg/h: refused\n${dir}/scratch/h: written\n`);
    expect(await exec('w', `${write('/shared/h')}; ls /shared`)).toBe('/shared/h: written\nf\nh\n');
  });

  it('its HTTPS server authorizes clients by SubjectAccessReview (nodes/proxy, nodes/metrics for /metrics): the admin may, a plain user may not', async () => {
    const node = await admin.nodes().get(NODE);
    const port = (node.status?.daemonEndpoints as any).kubeletEndpoint.Port as number;
    const [caPem, caKey, adminCert, adminKey] = await Promise.all([api.pki.ca.cert, api.pki.ca.key, api.pki.admin.cert, api.pki.admin.key].map((p) => readFile(p, 'utf8')));
    const ca = { cert: new x509.X509Certificate(caPem!), key: await loadKey(caKey!) };
    const jane = await issueCertificate(ca, { subject: { commonName: 'jane', organizations: ['devs'] }, usage: 'client', days: 1 });
    const get = async (cert: string, key: string, path = '/pods'): Promise<number> => {
      const agent = new Agent({ connect: { cert, key, rejectUnauthorized: false } });
      try { return (await request(`https://127.0.0.1:${port}${path}`, { dispatcher: agent })).statusCode; } finally { await agent.close(); }
    };
    expect(await get(adminCert!, adminKey!)).toBe(200);
    expect(await get(jane.certPem, jane.keyPem)).toBe(403);
    // /metrics is nodes/metrics: granted that alone, jane reads it and still not /pods
    expect(await get(jane.certPem, jane.keyPem, '/metrics')).toBe(403);
    await admin.resource(Resources.clusterRoles).create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'node-metrics' }, rules: [{ apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] }] } as KubeObject);
    await admin.resource(Resources.clusterRoleBindings).create({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'jane-node-metrics' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-metrics' }, subjects: [{ kind: 'User', name: 'jane' }],
    } as KubeObject);
    // the kubelet keeps a denial for cacheUnauthorizedMs (1 s here)
    await eventually(async () => (await get(jane.certPem, jane.keyPem, '/metrics')) === 200, 10_000, 'jane reads /metrics');
    expect(await get(jane.certPem, jane.keyPem)).toBe(403);
    const agent = new Agent({ connect: { cert: adminCert!, key: adminKey!, rejectUnauthorized: false } });
    const text = await (await request(`https://127.0.0.1:${port}/metrics`, { dispatcher: agent })).body.text();
    await agent.close();
    expect(text).toContain(`kubelet_node_name{node="${NODE}"} 1`);
    expect(text).toMatch(/kubelet_running_pods \d+/);
    expect(text).toMatch(/kubelet_running_containers\{container_state="running"\} \d+/);
    const anonymous = new Agent({ connect: { rejectUnauthorized: false } });
    expect((await request(`https://127.0.0.1:${port}/pods`, { dispatcher: anonymous })).statusCode).toBe(401);
    expect((await request(`https://127.0.0.1:${port}/healthz`, { dispatcher: anonymous })).statusCode).toBe(200);
    // a bearer token is who a TokenReview says (a service account granted nodes/metrics, as a Prometheus would be)
    await api.kubectl('create', 'serviceaccount', 'scraper');
    await api.kubectl('create', 'clusterrolebinding', 'scraper-node-metrics', '--clusterrole=node-metrics', '--serviceaccount=default:scraper');
    const token = (await api.kubectl('create', 'token', 'scraper')).stdout.trim();
    const withToken = async (t: string, path: string): Promise<number> =>
      (await request(`https://127.0.0.1:${port}${path}`, { dispatcher: anonymous, headers: { authorization: `Bearer ${t}` } })).statusCode;
    await eventually(async () => (await withToken(token, '/metrics')) === 200, 10_000, 'the service account reads /metrics');
    expect(await withToken(token, '/pods')).toBe(403);
    expect(await withToken(`${token}x`, '/metrics')).toBe(401);
    await anonymous.close();
  });

  it.skipIf(notRoot)('makes an emptyDir of medium Memory a tmpfs of its sizeLimit, unmounted when the pod goes', async () => {
    await createBound(admin, pod('ram', {
      spec: {
        volumes: [{ name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '8Mi' } }],
        containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'grep " /cache " /proc/self/mounts; exec sleep 60'], volumeMounts: [{ name: 'cache', mountPath: '/cache' }] }],
      },
    }), NODE);
    await phase('ram', 'Running');
    const line = await eventually(async () => (await admin.pods('default').logs('ram')) || undefined, 10_000, 'ram log');
    expect(line).toMatch(/^tmpfs \/cache tmpfs rw,.*size=8192k/);
    const volumes = join(rootDir, 'pods', (await get('ram')).metadata!.uid!, 'volumes');
    const mounted = async (): Promise<boolean> => (await readFile('/proc/self/mountinfo', 'utf8')).includes(` ${volumes}/cache `);
    expect(await mounted()).toBe(true);
    await admin.pods('default').delete('ram', { gracePeriodSeconds: 0 });
    await eventually(async () => !(await mounted()), 15_000, 'the tmpfs unmounted');
  });

  it('passes the environment on untouched: variables whose names are not shell identifiers (envFrom keys) too, as runc', async () => {
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dotted' }, data: { 'c.txt': 'dotted value', 'a-b': 'dashed' } });
    await createBound(admin, pod('dotted', {
      spec: { restartPolicy: 'Never', containers: [{ name: 'env', image: 'busybox', command: ['env'], envFrom: [{ prefix: 'CM_', configMapRef: { name: 'dotted' } }] }] },
    }), NODE);
    await phase('dotted', 'Succeeded');
    const vars = (await admin.pods('default').logs('dotted')).split('\n');
    expect(vars).toContain('CM_c.txt=dotted value');
    expect(vars).toContain('CM_a-b=dashed');
  });

  it('gives a host-network pod the node\'s hostname in $HOSTNAME as `hostname` says it, a pod of its own network its own name', async () => {
    const command = ['sh', '-c', 'echo "$HOSTNAME"'];
    const both = ['sh', '-c', 'echo "$HOSTNAME"; hostname'];
    await createBound(admin, pod('hostnet-name', { spec: { hostNetwork: true, restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: both }] } }), NODE);
    await createBound(admin, pod('own-name', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command }] } }), NODE);
    await Promise.all([phase('hostnet-name', 'Succeeded'), phase('own-name', 'Succeeded')]);
    expect(await admin.pods('default').logs('hostnet-name')).toBe(`${hostname()}\n${hostname()}\n`);
    expect(await admin.pods('default').logs('own-name')).toBe('own-name\n');
  });

  it('finds the command with the container\'s PATH alone: a PATH without the node\'s tools still builds its root (and kubectl exec enters it)', async () => {
    const path = '/opt/mytools/bin:/usr/local/bin:/usr/bin:/bin';
    await createBound(admin, pod('own-path', {
      spec: {
        volumes: [{ name: 'data', emptyDir: {} }],
        containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo "$PATH"; exec sleep 60'], env: [{ name: 'PATH', value: path }], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      },
    }), NODE);
    await phase('own-path', 'Running');
    expect(await eventually(async () => (await admin.pods('default').logs('own-path')) || undefined, 10_000, 'logs')).toBe(`${path}\n`);
    expect((await api.kubectl('exec', 'own-path', '--', 'sh', '-c', 'echo "$PATH"')).stdout).toBe(`${path}\n`);
    await admin.pods('default').delete('own-path', { gracePeriodSeconds: 0 });
  });

  it('reports a command that is not there as containerd does: StartError with runc\'s words, never started (1970-01-01T00:00:00Z)', async () => {
    await createBound(admin, pod('no-cmd', { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['nosuchcmd'] }] } }), NODE);
    const p = await phase('no-cmd', 'Failed');
    const terminated = (p.status?.containerStatuses as any[])[0].state.terminated;
    expect(terminated).toMatchObject({
      exitCode: 128, reason: 'StartError', startedAt: '1970-01-01T00:00:00Z',
      message: 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nosuchcmd": executable file not found in $PATH: unknown',
    });
    expect(Date.parse(terminated.finishedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('reports exit codes: restartPolicy Never ends Failed with the code; output without a last newline is logged', async () => {
    await createBound(admin, pod('exit3', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo one; printf two; printf three >&2; exit 3'] }] } }), NODE);
    const p = await phase('exit3', 'Failed');
    expect((p.status?.containerStatuses as any[])[0].state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect((await admin.pods('default').logs('exit3')).split('\n').sort()).toEqual(['', 'one', 'three', 'two']);
    await createBound(admin, pod('exit0', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['true'] }] } }), NODE);
    await phase('exit0', 'Succeeded');
  });

  it('ends a container with its own process: a background child holding its output is killed, not waited for', async () => {
    const t0 = Date.now();
    await createBound(admin, pod('bgchild', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'sleep 60 & echo done'] }] } }), NODE);
    const p = await phase('bgchild', 'Succeeded');
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect((p.status?.containerStatuses as any[])[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(await admin.pods('default').logs('bgchild')).toBe('done\n');
  });

  it('runs the command of an image it does not know, with its args; args alone go to its unknown entrypoint, which idles, as without them', async () => {
    await createBound(admin, pod('withcommand', { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'example.com/team/tool:2', command: ['sh', '-c'], args: ['echo from command'] }] } }), NODE);
    await phase('withcommand', 'Succeeded');
    expect(await admin.pods('default').logs('withcommand')).toBe('from command\n');
    await createBound(admin, pod('idle', { spec: { containers: [{ name: 'c', image: 'example.com/team/tool:2' }] } }), NODE);
    const idle = await phase('idle', 'Running');
    expect((idle.status?.containerStatuses as any[])[0].state.running).toBeTruthy();
  });

  it('runs an operator\'s pod of an unknown image: args alone, runAsNonRoot (its user is 65532), an emptyDir at /tmp over the kubelet\'s dir', async () => {
    expect(rootDir.startsWith('/tmp/')).toBe(true); // the kubelet's programs under the emptyDir's mountPath
    await createBound(admin, pod('operator', {
      spec: {
        securityContext: { runAsNonRoot: true },
        containers: [{ name: 'c', image: 'quay.io/prometheus-operator/prometheus-operator:v0.80.0', args: ['--kubelet-service=kube-system/kubelet'], volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] }],
        volumes: [{ name: 'tmp', emptyDir: {} }],
      },
    }), NODE);
    await phase('operator', 'Running');
    // still up: its process answers an exec, as the image's user when the kubelet can switch users, with the emptyDir at /tmp
    const r = await api.kubectl('exec', 'operator', '--', 'sh', '-c', 'id -u; touch /tmp/w && echo written');
    expect(r.stdout, r.stderr).toBe(`${notRoot ? process.getuid!() : 65532}\nwritten\n`);
    const status = (await get('operator')).status?.containerStatuses as any[];
    expect(status[0]).toMatchObject({ restartCount: 0, state: { running: {} } });
  });

  it('runs the built-in nginx and stops it with SIGTERM when the pod is deleted', async () => {
    await createBound(admin, pod('web', { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } }), NODE);
    await phase('web', 'Running');
    const logs = await eventually(async () => {
      const r = await api.kubectl('logs', 'web');
      return r.stdout.includes('listening') ? r.stdout : undefined;
    }, 10_000, 'nginx listening');
    const port = Number(/listening on port (\d+)/.exec(logs)![1]);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toContain('Welcome to nginx!');
    await eventually(async () => (await api.kubectl('logs', 'web')).stdout.includes('"GET / HTTP/1.1" 200'), 10_000, 'access log');
    const del = await api.kubectl('delete', 'pod', 'web', '--timeout=20s');
    expect(del.code, del.stderr).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it('an exec ended by its timeout or by its caller (a preStop hook whose container stopped) takes what it started with it, through nsenter too', async () => {
    const created = await createBound(admin, pod('execd', { spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'] }] } }), NODE);
    await phase('execd', 'Running');
    const id = runtime.listContainers(created.metadata!.uid!).find((c) => c.state === 'running')!.id;
    const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };
    for (const end of ['timeout', 'signal'] as const) {
      const file = join(rootDir, `exec-${end}.pid`);
      const ended = new AbortController();
      if (end === 'signal') setTimeout(() => ended.abort(), 500);
      const r = await runtime.execSync(id, ['sh', '-c', `sleep 300 & echo $! > ${file}; wait`], end === 'timeout' ? 1 : 0, ended.signal);
      const pid = Number(await readFile(file, 'utf8'));
      try {
        expect(r.exitCode).not.toBe(0);
        if (end === 'timeout') expect(r.timedOut).toBe(true);
        await eventually(async () => !alive(pid), 5_000, `the exec's sleep gone (${end})`);
      } finally {
        if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
    await admin.pods('default').delete('execd', { gracePeriodSeconds: 0 });
  });

  it('an exec lives no longer than its container: when the container exits, what runs in it is killed (137), streaming or not', async () => {
    const created = await createBound(admin, pod('exec-ends', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'] }] } }), NODE);
    await phase('exec-ends', 'Running');
    const id = runtime.listContainers(created.metadata!.uid!).find((c) => c.state === 'running')!.id;
    const session = await runtime.exec(id, ['sleep', '300'], { stdin: false, tty: false });
    session.stdout.resume();
    session.stderr?.resume();
    const file = join(rootDir, 'exec-ends.pid');
    const sync = runtime.execSync(id, ['sh', '-c', `echo $$ > ${file}; exec sleep 300`]);
    await eventually(async () => (await readFile(file, 'utf8').catch(() => '')).trim() !== '', 10_000, 'the exec running');
    const t0 = Date.now();
    await runtime.stopContainer(id, 0);
    expect(await session.exited).toBe(137);
    expect((await sync).exitCode).not.toBe(0); // killed, as a probe's exec on its timeout
    expect(Date.now() - t0).toBeLessThan(30_000);
    await expect(runtime.exec(id, ['true'], { stdin: false, tty: false })).rejects.toThrow(/not running/);
    await admin.pods('default').delete('exec-ends', { gracePeriodSeconds: 0 });
  });

  it('an exec on a terminal (a session of its own) is killed with its container, what ignores SIGHUP too', async () => {
    const created = await createBound(admin, pod('tty-exec-ends', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'] }] } }), NODE);
    await phase('tty-exec-ends', 'Running');
    const id = runtime.listContainers(created.metadata!.uid!).find((c) => c.state === 'running')!.id;
    const file = join(rootDir, 'tty-exec-ends.pid');
    const session = await runtime.exec(id, ['sh', '-c', `trap "" HUP; echo $$ > ${file}; exec sleep 300`], { stdin: true, tty: true });
    session.stdout.resume();
    const pid = Number(await eventually(async () => (await readFile(file, 'utf8').catch(() => '')).trim() || undefined, 10_000, 'the exec running'));
    const alive = (p: number): boolean => { try { process.kill(p, 0); return true; } catch { return false; } };
    try {
      await runtime.stopContainer(id, 0);
      expect(await session.exited).toBe(137);
      await eventually(async () => !alive(pid), 5_000, 'the exec\'s sleep gone');
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    await admin.pods('default').delete('tty-exec-ends', { gracePeriodSeconds: 0 });
  });

  it('kills a container that ignores SIGTERM after the grace period; a grace period of 30 days is waited for too', async () => {
    await createBound(admin, pod('stubborn', {
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'trap "" TERM; while true; do sleep 0.1; done'] }] },
    }), NODE);
    // past setTimeout's longest delay (~24.8 days), which Node would cut to 1 ms: killed at once
    await createBound(admin, pod('patient', {
      spec: { terminationGracePeriodSeconds: 30 * 24 * 3600, containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'trap "sleep 1; exit 0" TERM; while true; do sleep 0.1; done'] }] },
    }), NODE);
    await Promise.all([phase('stubborn', 'Running'), phase('patient', 'Running')]);
    const overflows: string[] = [];
    const onWarning = (w: Error): void => { if (w.name === 'TimeoutOverflowWarning') overflows.push(w.message); };
    process.on('warning', onWarning);
    try {
      const t0 = Date.now();
      await Promise.all(['stubborn', 'patient'].map((name) => admin.pods('default').delete(name)));
      for (const name of ['stubborn', 'patient']) await eventually(async () => { try { await get(name); return false; } catch { return true; } }, 15_000, `${name} gone`);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    } finally {
      process.off('warning', onWarning);
    }
    expect(overflows).toEqual([]);
  });

  it('shortens the kill of a pod already terminating: a second delete with less grace, or a force delete down to the pod\'s own grace period', async () => {
    const stubborn = (name: string, grace: number) => pod(name, {
      spec: { terminationGracePeriodSeconds: grace, containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'trap "" TERM; while true; do sleep 0.1; done'] }] },
    });
    // a delete may ask for longer than the spec's grace period; a force delete's 0 then falls back to the spec's (1.32's kubelet)
    const uids = await Promise.all([stubborn('shortened', 60), stubborn('forced', 3)].map(async (p) => (await createBound(admin, p, NODE)).metadata!.uid!));
    await Promise.all(['shortened', 'forced'].map((name) => phase(name, 'Running')));
    await Promise.all(['shortened', 'forced'].map((name) => admin.pods('default').delete(name, { gracePeriodSeconds: 60 })));
    // the kubelet has begun the 60 s kill (the status written while it is killed comes first)
    await eventually(async () => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=forced,reason=Killing' })).items.length > 0, 10_000, 'forced Killing');
    await eventually(async () => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=shortened,reason=Killing' })).items.length > 0, 10_000, 'shortened Killing');
    const t0 = Date.now();
    await admin.pods('default').delete('shortened', { gracePeriodSeconds: 2 });
    await admin.pods('default').delete('forced', { gracePeriodSeconds: 0 });
    const stopped = (uid: string): boolean => runtime.listContainers(uid).every((c) => c.state !== 'running');
    await eventually(async () => stopped(uids[1]!), 10_000, 'forced container killed');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2_500); // SIGKILL once the spec's 3 s have passed, not at once
    await eventually(async () => { try { await get('shortened'); return false; } catch { return stopped(uids[0]!); } }, 10_000, 'shortened gone');
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('kills a force-deleted pod as a deleted one, with its own grace period: its preStop hook, then SIGTERM', async () => {
    const file = join(rootDir, 'force-deleted.txt');
    await createBound(admin, hooked('force-deleted', file), NODE);
    const uid = (await phase('force-deleted', 'Running')).metadata!.uid!;
    await eventually(async () => (await readFile(file, 'utf8').catch(() => '')).includes('poststart'), 10_000, 'postStart ran');
    const del = await api.kubectl('delete', 'pod', 'force-deleted', '--grace-period=0', '--force');
    expect(del.code, del.stderr).toBe(0);
    await eventually(async () => runtime.listContainers(uid).length === 0, 15_000, 'its container removed');
    expect(await readFile(file, 'utf8')).toBe('poststart\nprestop\nterm\n');
  });

  it('stops a container as the init of its PID namespace: SIGTERM reaches it only through a handler (else SIGKILL, 137), unless the pod shares one', async () => {
    // a failing liveness probe stops the container with the pod's grace period, and the status keeps its exit code
    const sleeper = (name: string, extra: Record<string, unknown>) => pod(name, {
      spec: {
        terminationGracePeriodSeconds: 1, ...extra,
        containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '1000'], livenessProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 1 } }],
      },
    });
    await createBound(admin, sleeper('init-sleeper', {}), NODE);
    await createBound(admin, sleeper('shared-sleeper', { shareProcessNamespace: true }), NODE);
    const lastExit = async (name: string): Promise<number> => eventually(async () =>
      ((await get(name)).status?.containerStatuses as any[] | undefined)?.[0]?.lastState?.terminated?.exitCode as number | undefined, 20_000, `${name} restarted`);
    expect(await lastExit('init-sleeper')).toBe(137);
    expect(await lastExit('shared-sleeper')).toBe(143);
    await Promise.all(['init-sleeper', 'shared-sleeper'].map((n) => admin.pods('default').delete(n, { gracePeriodSeconds: 0 })));
  });

  it('reports a pod deleted as it starts as the runtime has it while it is killed: running, not ContainerCreating or Failed', async () => {
    await createBound(admin, pod('hasty', {
      spec: { terminationGracePeriodSeconds: 3, containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'trap "" TERM; while true; do sleep 0.1; done'] }] },
    }), NODE);
    // deleted as soon as its container has started: before the kubelet's relist has (most likely) seen it run
    await eventually(async () => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=hasty,reason=Started' })).items.length > 0, 15_000, 'hasty started');
    await admin.pods('default').delete('hasty');
    const killing = await eventually(async () => {
      const p = await get('hasty');
      return (p.status?.containerStatuses as any[] | undefined)?.[0]?.state?.running ? p : undefined;
    }, 2_500, 'hasty reported running while killed');
    expect(killing.status?.phase).toBe('Running');
    expect((killing.status?.containerStatuses as any[])[0].started).toBe(true);
    await eventually(async () => { try { await get('hasty'); return false; } catch { return true; } }, 15_000, 'hasty gone');
  });

  it('reports termination messages: what the container wrote to its terminationMessagePath, else its log\'s end (FallbackToLogsOnError)', async () => {
    await createBound(admin, pod('said', {
      spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo "bye from file" > /dev/termination-log; exit 3'] }] },
    }), NODE);
    await createBound(admin, pod('logged', {
      spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', terminationMessagePolicy: 'FallbackToLogsOnError', command: ['sh', '-c', 'echo first; echo last words; exit 4'] }] },
    }), NODE);
    const terminated = async (name: string): Promise<Record<string, any>> =>
      ((await phase(name, 'Failed')).status?.containerStatuses as any[])[0].state.terminated;
    expect(await terminated('said')).toMatchObject({ exitCode: 3, reason: 'Error', message: 'bye from file\n' });
    expect(await terminated('logged')).toMatchObject({ exitCode: 4, reason: 'Error', message: 'first\nlast words\n' });
    // the container wrote into a file of its own: the node's /dev/termination-log (a mount point) stays empty
    if (!notRoot) expect(await readFile('/dev/termination-log', 'utf8')).toBe('');
  });

  it('runs a container as its securityContext\'s user and groups (its volumes the fsGroup\'s); runAsNonRoot refuses root', async () => {
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'as-user-conf' }, data: { a: 'from a configMap' } });
    await admin.secrets('default').create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'as-user-secret' }, data: { b: Buffer.from('from a secret').toString('base64') } });
    await createBound(admin, pod('as-user', {
      spec: {
        restartPolicy: 'Never', securityContext: { runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000], fsGroup: 2000 },
        volumes: [
          { name: 'scratch', emptyDir: {} }, { name: 'conf', configMap: { name: 'as-user-conf' } },
          { name: 'sec', secret: { secretName: 'as-user-secret', defaultMode: 0o400 } },
        ],
        containers: [{
          name: 'sh', image: 'busybox',
          volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }, { name: 'conf', mountPath: '/conf' }, { name: 'sec', mountPath: '/sec' }],
          command: ['sh', '-c', 'id -u; id -g; id -G; touch /scratch/x && echo wrote; stat -c %g /scratch/x; cat /conf/a; echo; cat /sec/b; echo; stat -L -c "%a %g" /sec/b; stat -L -c "%a %u %g" /var/run/secrets/kubernetes.io/serviceaccount/token'],
        }],
      },
    }), NODE);
    await phase('as-user', 'Succeeded');
    const [uid, gid, groups, wrote, fileGroup, conf, secret, secretMode, token] = (await api.kubectl('logs', 'as-user')).stdout.trim().split('\n');
    // the emptyDir is the fsGroup's (setgid): what the container writes there is the group's; a secret only its owner
    // (root) may read is the group's too, and readable by it (0400 | 0440), as upstream's SetVolumeOwnership leaves it
    if (!notRoot) {
      expect([uid, gid, groups!.split(' ').sort(), wrote, fileGroup]).toEqual(['1000', '3000', ['2000', '3000', '4000'], 'wrote', '2000']);
      expect([conf, secret, secretMode]).toEqual(['from a configMap', 'from a secret', '440 2000']);
      // the service-account token: the containers' common user's (upstream's FsUser), 0600 | the group's read
      expect(token).toBe('640 1000 2000');
    }
    await createBound(admin, pod('not-root', { spec: { securityContext: { runAsNonRoot: true }, containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'] }] } }), NODE);
    const refused = await eventually(async () => {
      const p = await get('not-root');
      return (p.status?.containerStatuses as any[] | undefined)?.[0]?.state?.waiting?.reason === 'CreateContainerConfigError' ? p : undefined;
    }, 15_000, 'not-root refused');
    const uidOf = refused.metadata!.uid!;
    expect((refused.status?.containerStatuses as any[])[0].state.waiting.message)
      .toBe(`container has runAsNonRoot and image will run as root (pod: "not-root_default(${uidOf})", container: sh)`);
  });
});
