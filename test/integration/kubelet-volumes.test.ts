// Persistent volumes end to end with the real kubectl: the persistentvolume-binder binds a claim to a hostPath PV
// and the kubelet (process runtime) exposes the PV's directory at the mount; a missing claim is FailedMount until it
// exists and binds; a StatefulSet's volumeClaimTemplates are provisioned by the mini-kube.io/hostpath provisioner
// (default StorageClass, WaitForFirstConsumer) and its pods run. ConfigMap volumes follow their ConfigMap (watch),
// except subPath mounts.
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { ProcessRuntime } from '../../pkg/kubelet/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, startInProcess } from './controllers-support.js';
import { createBound, eventually, nodeClient, pod, publishRootCa, type RunningKubelet, startKubelet } from './kubelet-support.js';
import { startScheduler, type RunningScheduler } from './scheduler-support.js';

const NODE = 'node-vol';

describe('kubelet: persistent volumes and refreshed configMap volumes', { timeout: 90_000 }, () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let cm: { stop(): Promise<void> };
  let sched: RunningScheduler;
  let dir = '';

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-volumes-'));
    await publishRootCa(api, admin);
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1',
      runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir: join(dir, 'kubelet'), hostIp }),
      syncFrequencyMs: 120_000, // volume updates below come from the watch, not the periodic sync
      server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1' },
    });
    await kubelet.host.whenRegistered();
    cm = await startInProcess(await controllerManagerKubeconfig(api), {
      controllers: ['persistentvolume-binder', 'hostpath-provisioner', 'pvc-protection', 'pv-protection', 'statefulset'],
      config: { hostPathProvisionerDir: join(dir, 'provisioned') },
    });
    sched = startScheduler(await Client.fromKubeconfig(api.kubeconfig, { qps: 0 }));
  }, 60_000);

  afterAll(async () => {
    await sched?.stop();
    await cm?.stop();
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (name: string): Promise<KubeObject> => admin.pods('default').get(name);
  const running = (name: string, ms = 20_000): Promise<KubeObject> =>
    eventually(async () => { const p = await get(name); return p.status?.phase === 'Running' ? p : undefined; }, ms, `${name} Running`);
  const logsOf = (name: string, want: string): Promise<string> =>
    eventually(async () => { const l = await admin.pods('default').logs(name); return l.includes(want) ? l : undefined; }, 15_000, `${name} logs with ${want}`);

  it('binds a claim to a hostPath volume (kubectl get pvc: Bound) and mounts its directory in the pod', async () => {
    const data = join(dir, 'pv1');
    await mkdir(data);
    await writeFile(join(data, 'hello'), 'from the volume\n');
    const manifest = `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  hostPath: {path: ${data}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: claim1, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  resources: {requests: {storage: 500Mi}}
---
apiVersion: v1
kind: Pod
metadata: {name: uses-claim, namespace: default}
spec:
  terminationGracePeriodSeconds: 1
  volumes: [{name: data, persistentVolumeClaim: {claimName: claim1}}]
  containers:
  - name: sh
    image: busybox
    command: [sh, -c, 'cat $MINI_KUBE_ROOTFS/data/hello; echo written > $MINI_KUBE_ROOTFS/data/out; exec sleep 60']
    volumeMounts: [{name: data, mountPath: /data}]
`;
    const applied = await api.kubectlWithInput(manifest, 'apply', '-f', '-');
    expect(applied.code, applied.stderr).toBe(0);
    const pvc = await eventually(async () => {
      const r = await api.kubectl('get', 'pvc', 'claim1', '--no-headers');
      return /^claim1\s+Bound\s+pv1\s+1Gi\s+RWO\s+manual/.test(r.stdout) ? r.stdout : undefined;
    }, 20_000, 'claim1 Bound');
    expect(pvc).toMatch(/Bound/);
    expect((await api.kubectl('get', 'pv', 'pv1', '--no-headers')).stdout).toMatch(/^pv1\s+1Gi\s+RWO\s+Retain\s+Bound\s+default\/claim1\s+manual/);
    const claim = await admin.persistentVolumeClaims('default').get('claim1');
    expect(claim.metadata?.annotations).toMatchObject({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    await running('uses-claim');
    expect(await logsOf('uses-claim', 'from the volume')).toBe('from the volume\n');
    await eventually(async () => (await readFile(join(data, 'out'), 'utf8').catch(() => '')) === 'written\n', 10_000, 'file written through the mount');

    // the claim goes: the volume is Released and, with policy Retain, keeps its data
    await admin.pods('default').delete('uses-claim', { gracePeriodSeconds: 0 });
    expect((await api.kubectl('delete', 'pvc', 'claim1', '--wait=false')).code).toBe(0);
    await eventually(async () => (await admin.persistentVolumes().get('pv1')).status?.phase === 'Released', 20_000, 'pv1 Released');
    expect(await readFile(join(data, 'hello'), 'utf8')).toBe('from the volume\n');
  });

  it('a hostPath volume of no type at a missing path is made a directory (0755) by the runtime, as containerd does; the pod runs', async () => {
    const missing = join(dir, 'absent', 'data');
    await createBound(admin, pod('missing-host-path', {
      spec: {
        volumes: [{ name: 'data', hostPath: { path: missing } }, { name: 'blank', hostPath: { path: join(dir, 'absent-too'), type: '' } }],
        containers: [{
          name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo made > /data/out; ls -a /blank; exec sleep 60'],
          volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'blank', mountPath: '/blank' }],
        }],
      },
    }), NODE);
    await running('missing-host-path');
    await eventually(async () => (await readFile(join(missing, 'out'), 'utf8').catch(() => '')) === 'made\n', 10_000, 'file written in the made directory');
    expect((await stat(join(dir, 'absent-too'))).mode & 0o7777).toBe(0o755);
    await admin.pods('default').delete('missing-host-path', { gracePeriodSeconds: 0 });
  });

  it('a pod whose claim is missing or unbound waits with FailedMount, then starts once the claim binds', async () => {
    await createBound(admin, pod('waits-for-claim', {
      spec: {
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'later' } }],
        containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'ls $MINI_KUBE_ROOTFS/data; exec sleep 60'], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      },
    }), NODE);
    const failed = (text: string) => eventually(async () => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=waits-for-claim,reason=FailedMount' })).items
      .some((e) => e.message === text), 15_000, `FailedMount: ${text}`);
    const prefix = 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: error processing PVC default/later: ';
    await failed(`${prefix}failed to fetch PVC from API server: persistentvolumeclaims "later" not found`);
    expect((await get('waits-for-claim')).status?.phase).toBe('Pending');
    // a claim no volume can satisfy stays Pending
    await admin.persistentVolumeClaims('default').create({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'later' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'slow', resources: { requests: { storage: '1Gi' } } },
    });
    await failed(`${prefix}PVC is not bound`);
    const data = join(dir, 'pv2');
    await mkdir(data);
    await writeFile(join(data, 'marker'), '');
    await admin.persistentVolumes().create({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv2' },
      spec: { capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], storageClassName: 'slow', local: { path: data }, persistentVolumeReclaimPolicy: 'Retain',
        // upstream refuses a local volume without node affinity
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [NODE] }] }] } } },
    });
    await running('waits-for-claim');
    expect(await logsOf('waits-for-claim', 'marker')).toBe('marker\n');
    const claim = await admin.persistentVolumeClaims('default').get('later');
    expect(claim.status).toMatchObject({ phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] });
  });

  it('provisions a StatefulSet\'s volumeClaimTemplates from the default StorageClass; its pods run', async () => {
    const manifest = `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: mini-kube.io/hostpath
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Delete
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - name: sh
        image: busybox
        command: [sh, -c, 'echo $HOSTNAME > $MINI_KUBE_ROOTFS/var/lib/db/owner; exec sleep 60']
        env: [{name: HOSTNAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
        volumeMounts: [{name: data, mountPath: /var/lib/db}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`;
    const applied = await api.kubectlWithInput(manifest, 'apply', '-f', '-');
    expect(applied.code, applied.stderr).toBe(0);
    await running('db-0', 30_000);
    await running('db-1', 30_000);
    const claims = await api.kubectl('get', 'pvc', '-l', 'app=db', '--no-headers');
    expect(claims.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2))).toEqual([['data-db-0', 'Bound'], ['data-db-1', 'Bound']]);
    const claim = await admin.persistentVolumeClaims('default').get('data-db-0');
    expect(claim.spec?.storageClassName).toBe('standard');
    expect(claim.metadata?.annotations).toMatchObject({ 'volume.kubernetes.io/selected-node': NODE, 'volume.kubernetes.io/storage-provisioner': 'mini-kube.io/hostpath' });
    const pv = await admin.persistentVolumes().get(claim.spec!.volumeName as string);
    expect(pv.metadata?.annotations?.['pv.kubernetes.io/provisioned-by']).toBe('mini-kube.io/hostpath');
    expect(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.[0]).toEqual({ key: 'kubernetes.io/hostname', operator: 'In', values: [NODE] });
    const path = pv.spec?.hostPath?.path as string;
    await eventually(async () => (await readFile(join(path, 'owner'), 'utf8').catch(() => '')) === 'db-0\n', 10_000, 'db-0 wrote to its volume');
    const events = (await admin.events('default').list({ fieldSelector: 'involvedObject.name=data-db-0' })).items.map((e) => e.reason);
    expect(events).toEqual(expect.arrayContaining(['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded']));

    // deleting a provisioned claim (reclaimPolicy Delete) deletes its volume and its directory
    expect((await api.kubectl('scale', 'statefulset', 'db', '--replicas=1')).code).toBe(0);
    await eventually(async () => { try { await get('db-1'); return false; } catch { return true; } }, 20_000, 'db-1 gone');
    const pv1 = (await admin.persistentVolumeClaims('default').get('data-db-1')).spec!.volumeName as string;
    expect((await api.kubectl('delete', 'pvc', 'data-db-1')).code).toBe(0);
    await eventually(async () => { try { await admin.persistentVolumes().get(pv1); return false; } catch { return true; } }, 20_000, `${pv1} deleted`);
    expect((await readdir(join(dir, 'provisioned'))).filter((d) => d.startsWith(pv1))).toEqual([]);
  });

  it('updates a configMap volume when the ConfigMap changes (atomically, through ..data); a subPath mount keeps the old content', async () => {
    await admin.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'live' }, data: { greeting: 'v1' } });
    // named for its node at creation: the scheduler running for the other tests would otherwise race a bind
    await admin.pods('default').create(pod('reads-config', {
      spec: {
        nodeName: NODE,
        volumes: [{ name: 'cfg', configMap: { name: 'live' } }],
        containers: [{
          name: 'sh', image: 'busybox', command: ['sleep', '60'],
          volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }, { name: 'cfg', mountPath: '/etc/pinned', subPath: 'greeting' }],
        }],
      },
    }));
    const p = await running('reads-config');
    const rootfs = join(dir, 'kubelet', 'pods', p.metadata!.uid!, 'rootfs', 'sh');
    expect(await readFile(join(rootfs, 'etc/cfg/greeting'), 'utf8')).toBe('v1');
    const patched = await api.kubectl('patch', 'configmap', 'live', '--type=merge', '-p', '{"data":{"greeting":"v2","extra":"new"}}');
    expect(patched.code, patched.stderr).toBe(0);
    await eventually(async () => (await readFile(join(rootfs, 'etc/cfg/greeting'), 'utf8')) === 'v2', 10_000, 'greeting updated');
    // the swap of ..data comes first; the new top-level link and the old directory's removal follow it
    const settled = async (): Promise<boolean> => (await readdir(join(rootfs, 'etc/cfg'))).filter((f) => f.startsWith('..2')).length === 1;
    await eventually(settled, 10_000, 'old timestamped directory removed');
    expect(await readFile(join(rootfs, 'etc/cfg/extra'), 'utf8')).toBe('new');
    expect(await readFile(join(rootfs, 'etc/pinned'), 'utf8')).toBe('v1');
  });
});
