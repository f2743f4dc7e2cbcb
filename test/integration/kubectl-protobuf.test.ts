// kubectl's typed-client commands send `application/vnd.kubernetes.protobuf` bodies. Each command
// here runs twice: as is (protobuf), and as `--dry-run=client -o json | kubectl create -f -` (the same
// object sent as JSON). What the server stored must be the same either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { decodeProtobufObject, encodeProtobufObject } from '../../pkg/apimachinery/protobuf/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  // Both namespaces go through protobuf; the namespace case below compares them too.
  for (const ns of ['pb', 'js']) expect((await s.kubectl('create', 'namespace', ns)).code).toBe(0);
});
afterAll(async () => { await s?.close(); });

/** Fields that differ between two creations of the same object. */
function normalize(obj: Record<string, any>, name: string, alias: string): unknown {
  // The object's own uid also appears where the server derives from it (a Job's selector and template labels).
  const uid = String(obj.metadata?.uid ?? 'no-uid');
  const o = JSON.parse(JSON.stringify(obj).split(`"${alias}"`).join(`"${name}"`).split(`/${alias}"`).join(`/${name}"`).split(uid).join('UID'));
  const meta = o.metadata ?? {};
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'selfLink']) delete meta[k];
  for (const m of meta.managedFields ?? []) delete m.time;
  for (const r of meta.ownerReferences ?? []) delete r.uid;
  if (o.kind === 'Service') {
    delete o.spec.clusterIP;
    delete o.spec.clusterIPs;
    for (const p of o.spec.ports ?? []) delete p.nodePort;
  }
  if (o.kind === 'Secret' && o.type === 'kubernetes.io/service-account-token') delete o.data;
  return o;
}

/** `args` with `flags` added before a `--` (what follows it is the container's command). */
const withFlags = (args: string[], ...flags: string[]): string[] => {
  const dash = args.indexOf('--');
  return dash < 0 ? [...args, ...flags] : [...args.slice(0, dash), ...flags, ...args.slice(dash)];
};

const ok = async (...args: string[]): Promise<string> => (await succeeded(s.kubectl(...args), args)).stdout;

interface Case {
  /** `kubectl <args>`; NAME is replaced by the object's name. */
  args: string[];
  name: string;
  clusterScoped?: boolean;
  check?: (obj: Record<string, any>) => void;
}

const CASES: Case[] = [
  {
    args: ['create', 'deployment', 'NAME', '--image=nginx', '--replicas=2'], name: 'web',
    check: (o) => {
      expect(o.spec.replicas).toBe(2);
      expect(o.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx' });
      expect(o.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    },
  },
  {
    args: ['create', 'service', 'clusterip', 'NAME', '--tcp=80:8080'], name: 's',
    check: (o) => expect(o.spec.ports).toEqual([{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }]),
  },
  { args: ['create', 'service', 'nodeport', 'NAME', '--tcp=80:http'], name: 'np' },
  { args: ['create', 'service', 'externalname', 'NAME', '--external-name=example.com'], name: 'en' },
  {
    args: ['create', 'secret', 'generic', 'NAME', '--from-literal=a=b', '--from-literal=bin=\u00ff\u00e9\u4e2d'], name: 'sec',
    check: (o) => {
      expect(o.data.a).toBe(Buffer.from('b').toString('base64'));
      expect(Buffer.from(o.data.bin, 'base64').toString('utf8')).toBe('\u00ff\u00e9\u4e2d');
      expect(o.type).toBe('Opaque');
    },
  },
  { args: ['create', 'secret', 'docker-registry', 'NAME', '--docker-username=u', '--docker-password=p', '--docker-server=r.example'], name: 'reg' },
  {
    args: ['create', 'configmap', 'NAME', '--from-literal=k=v', '--from-literal=empty='], name: 'cm',
    check: (o) => expect(o.data).toEqual({ k: 'v', empty: '' }),
  },
  {
    args: ['create', 'job', 'NAME', '--image=busybox', '--', 'sh', '-c', 'exit 0'], name: 'j',
    check: (o) => expect(o.spec.template.spec.containers[0].command).toEqual(['sh', '-c', 'exit 0']),
  },
  {
    args: ['create', 'cronjob', 'NAME', '--image=busybox', '--schedule=*/5 * * * *', '--restart=OnFailure'], name: 'cj',
    check: (o) => expect(o.spec.schedule).toBe('*/5 * * * *'),
  },
  {
    args: ['create', 'role', 'NAME', '--verb=get', '--verb=list', '--resource=pods', '--resource=deployments.apps'], name: 'r',
    check: (o) => expect(o.rules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
    ]),
  },
  {
    args: ['create', 'rolebinding', 'NAME', '--role=r', '--user=alice', '--serviceaccount=pb:default'], name: 'rb',
    check: (o) => expect(o.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }),
  },
  { args: ['create', 'clusterrole', 'NAME', '--verb=get', '--non-resource-url=/healthz'], name: 'cr', clusterScoped: true },
  { args: ['create', 'clusterrolebinding', 'NAME', '--clusterrole=cr', '--group=devs'], name: 'crb', clusterScoped: true },
  {
    args: ['create', 'priorityclass', 'NAME', '--value=1000', '--description=important', '--preemption-policy=Never'], name: 'high', clusterScoped: true,
    check: (o) => expect(o).toMatchObject({ value: 1000, description: 'important', preemptionPolicy: 'Never' }),
  },
  {
    args: ['create', 'pdb', 'NAME', '--selector=app=web', '--min-available=50%'], name: 'pdb',
    check: (o) => expect(o.spec.minAvailable).toBe('50%'),
  },
  { args: ['create', 'pdb', 'NAME', '--selector=app=web', '--max-unavailable=1'], name: 'pdb2', check: (o) => expect(o.spec.maxUnavailable).toBe(1) },
  {
    args: ['create', 'ingress', 'NAME', '--rule=foo.com/bar*=svc:80', '--rule=tls.example/=other:http,tls=cert', '--class=nginx'], name: 'ing',
    check: (o) => expect(o.spec.rules[0].http.paths[0]).toEqual({ path: '/bar', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }),
  },
  {
    args: ['create', 'quota', 'NAME', '--hard=cpu=1,memory=1G,pods=2', '--scopes=NotBestEffort'], name: 'q',
    check: (o) => expect(o.spec.hard).toEqual({ cpu: '1', memory: '1G', pods: '2' }),
  },
  { args: ['create', 'serviceaccount', 'NAME'], name: 'sa' },
  { args: ['expose', 'deployment', 'web', '--port=80', '--target-port=8080', '--name=NAME'], name: 'exposed' },
  { args: ['create', 'job', 'NAME', '--from=cronjob/cj'], name: 'from-cron' },
];

describe('kubectl with protobuf request bodies', () => {
  it('sends protobuf (the case this file is about)', async () => {
    const r = await s.kubectl('create', 'configmap', 'probe', '-n', 'pb', '--from-literal=a=b', '-v=8');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf/);
  });

  for (const c of CASES) {
    it(`kubectl ${c.args.join(' ')} stores what the JSON create stores`, async () => {
      const alias = c.clusterScoped ? `${c.name}-js` : c.name;
      const pbArgs = c.args.map((a) => a.replace('NAME', c.name));
      const jsArgs = c.args.map((a) => a.replace('NAME', alias));
      const nsPb = c.clusterScoped ? [] : ['-n', 'pb'];
      const nsJs = c.clusterScoped ? [] : ['-n', 'js'];
      // what each create prints is what the server answered: the object as stored
      const [pbOut, manifest] = await Promise.all([
        ok(...withFlags(pbArgs, ...nsPb, '-o', 'json')),
        ok(...withFlags(jsArgs, ...nsJs, '--dry-run=client', '-o', 'json')),
      ]);
      const created = await s.kubectlWithInput(manifest, 'create', '-f', '-', ...nsJs, '-o', 'json');
      expect(created.stderr).toBe('');
      const viaPb = JSON.parse(pbOut);
      const viaJs = JSON.parse(created.stdout);
      expect(normalize(viaPb, c.name, c.name)).toEqual(normalize(viaJs, c.name, alias));
      c.check?.(viaPb);
    });
  }

  it('kubectl create namespace stores what the JSON create stores', async () => {
    const manifest = await ok('create', 'namespace', 'other', '--dry-run=client', '-o', 'json');
    expect((await s.kubectlWithInput(manifest, 'create', '-f', '-')).code).toBe(0);
    const viaPb = JSON.parse(await ok('get', 'namespace', 'pb', '-o', 'json'));
    const viaJs = JSON.parse(await ok('get', 'namespace', 'other', '-o', 'json'));
    expect(normalize(viaPb, 'pb', 'pb')).toEqual(normalize(viaJs, 'pb', 'other'));
  });

  it('reads protobuf bodies of client-go typed calls: create, update and delete with DeleteOptions', async () => {
    const send = async (method: string, path: string, obj: Record<string, unknown>): Promise<{ status: number; body: any }> => {
      const res = await request(s.url + path, {
        method: method as 'POST', dispatcher: s.agent, body: encodeProtobufObject(obj),
        headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf,application/json' },
      });
      // The answer comes in protobuf too, Status errors included.
      expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
      return { status: res.statusCode, body: decodeProtobufObject(Buffer.from(await res.body.arrayBuffer())) as any };
    };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed', labels: { a: 'b' } }, data: { k: 'v' }, binaryData: { bin: Buffer.from([0, 1, 255]).toString('base64') } };
    const created = await send('POST', '/api/v1/namespaces/pb/configmaps', cm);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ data: { k: 'v' }, binaryData: { bin: 'AAH/' }, metadata: { labels: { a: 'b' } } });
    const updated = await send('PUT', '/api/v1/namespaces/pb/configmaps/typed', { ...cm, metadata: { ...cm.metadata, resourceVersion: created.body.metadata.resourceVersion }, data: { k: 'w' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ k: 'w' });
    // DeleteOptions as client-go encodes them: under the resource's group-version.
    const dry = await send('DELETE', '/api/v1/namespaces/pb/configmaps/typed', { apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] });
    expect(dry.status).toBe(200);
    expect((await s.kubectl('get', 'configmap', 'typed', '-n', 'pb')).code).toBe(0);
    const stale = await send('DELETE', '/api/v1/namespaces/pb/configmaps/typed', { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } });
    expect(stale.status).toBe(409);
    const gone = await send('DELETE', '/api/v1/namespaces/pb/configmaps/typed', { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Background' });
    expect(gone.status).toBe(200);
    expect((await s.kubectl('get', 'configmap', 'typed', '-n', 'pb')).code).not.toBe(0);
  });

  it('answers 400 with a clear message for a body that is not protobuf', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/pb/configmaps', Buffer.from('k8s\0garbage').toString('latin1'),
      { 'content-type': 'application/vnd.kubernetes.protobuf' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(r.body.message).toMatch(/protobuf/);
  });
});
