// The real kubectl against a real apiserver: create from YAML, get in every output format, list
// across namespaces, describe, replace, dry runs, delete --wait, and the errors as kubectl prints them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';
import { P1_POD, WEB_DEPLOYMENT as DEPLOYMENT } from './kubectl-objects.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

const POD = `${P1_POD}    command: [sleep, "3600"]\n`;
const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
`;
const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {a: "1", b: "2"}
`;
const SECRET = `apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {user: admin}
data: {pass: czNjcjN0}
`;

/** The rows of a kubectl table, split on runs of two or more spaces. */
/** `kubectl create -f -` of `manifest` fails (exit 1) with exactly `stderr`. */
const createRefused = async (manifest: string, stderr: string): Promise<void> => {
  const r = await s.kubectlWithInput(manifest, 'create', '-f', '-');
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(stderr);
};

const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('kubectl create and get', () => {
  it('creates a Deployment, a Pod, a Service, a ConfigMap and a Secret from YAML on stdin', async () => {
    expect(await ok(s.kubectlWithInput(DEPLOYMENT, 'create', '-f', '-'))).toBe('deployment.apps/web created\n');
    expect(await ok(s.kubectlWithInput(POD, 'create', '-f', '-'))).toBe('pod/p1 created\n');
    expect(await ok(s.kubectlWithInput(SERVICE, 'create', '-f', '-'))).toBe('service/web created\n');
    expect(await ok(s.kubectlWithInput(CONFIGMAP, 'create', '-f', '-'))).toBe('configmap/cfg created\n');
    expect(await ok(s.kubectlWithInput(SECRET, 'create', '-f', '-'))).toBe('secret/creds created\n');
  });

  it('prints the default table columns of a real cluster', async () => {
    const pods = rows(await ok(s.kubectl('get', 'pods')));
    expect(pods[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(pods[1]!.slice(0, 4)).toEqual(['p1', '0/1', 'Pending', '0']);
    expect(pods[1]![4]).toMatch(/^\d+s$/);

    const deploys = rows(await ok(s.kubectl('get', 'deployments')));
    expect(deploys[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(deploys[1]!.slice(0, 4)).toEqual(['web', '0/2', '0', '0']);

    const svcs = rows(await ok(s.kubectl('get', 'svc')));
    expect(svcs[0]).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    expect(svcs.map((r) => r[0])).toEqual(['NAME', 'kubernetes', 'web']);
    expect(svcs[1]!.slice(1, 5)).toEqual(['ClusterIP', '10.96.0.1', '<none>', '443/TCP']);
    expect(svcs[2]![1]).toBe('ClusterIP');
    expect(svcs[2]![2]).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(svcs[2]!.slice(3, 5)).toEqual(['<none>', '80/TCP']);

    const cms = rows(await ok(s.kubectl('get', 'cm', 'cfg')));
    expect(cms[0]).toEqual(['NAME', 'DATA', 'AGE']);
    expect(cms[1]!.slice(0, 2)).toEqual(['cfg', '2']);

    const secrets = rows(await ok(s.kubectl('get', 'secrets')));
    expect(secrets[0]).toEqual(['NAME', 'TYPE', 'DATA', 'AGE']);
    expect(secrets[1]!.slice(0, 3)).toEqual(['creds', 'Opaque', '2']);

    const ns = rows(await ok(s.kubectl('get', 'ns')));
    expect(ns[0]).toEqual(['NAME', 'STATUS', 'AGE']);
    expect(ns.slice(1).map((r) => r.slice(0, 2))).toEqual([['default', 'Active'], ['kube-node-lease', 'Active'], ['kube-public', 'Active'], ['kube-system', 'Active']]);
  });

  it('prints -o wide with the extra columns', async () => {
    const pods = rows(await ok(s.kubectl('get', 'pods', '-o', 'wide')));
    expect(pods[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(pods[1]!.slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
    const deploys = rows(await ok(s.kubectl('get', 'deploy', '-o', 'wide')));
    expect(deploys[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(deploys[1]!.slice(5)).toEqual(['nginx', 'nginx:1.25', 'app=web']);
    const svcs = rows(await ok(s.kubectl('get', 'svc', 'web', '-o', 'wide')));
    expect(svcs[0]).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
    expect(svcs[1]![6]).toBe('app=web');
  });

  it('prints -o yaml and -o json with the server-set fields and defaults', async () => {
    const pod = parseYaml(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'yaml')));
    expect(pod.apiVersion).toBe('v1');
    expect(pod.kind).toBe('Pod');
    expect(pod.metadata.namespace).toBe('default');
    expect(pod.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(pod.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(pod.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(pod.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
    expect(pod.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
    expect(pod.status).toMatchObject({ phase: 'Pending', qosClass: 'BestEffort' });

    const dep = JSON.parse(await ok(s.kubectl('get', 'deploy', 'web', '-o', 'json')));
    expect(dep.metadata.generation).toBe(1);
    expect(dep.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(dep.spec).toMatchObject({ revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });

    const secret = JSON.parse(await ok(s.kubectl('get', 'secret', 'creds', '-o', 'json')));
    expect(secret.type).toBe('Opaque');
    expect(secret.data).toEqual({ pass: 'czNjcjN0', user: Buffer.from('admin').toString('base64') });
    expect(secret.stringData).toBeUndefined();

    const list = JSON.parse(await ok(s.kubectl('get', 'cm', '-o', 'json')));
    expect(list.kind).toBe('List');
    expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain('cfg');
  });

  it('prints -o name and -o jsonpath', async () => {
    expect(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'name'))).toBe('pod/p1\n');
    expect(await ok(s.kubectl('get', 'deploy', '-o', 'name'))).toBe('deployment.apps/web\n');
    expect(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.spec.containers[0].image}'))).toBe('busybox:1.36');
    expect(await ok(s.kubectl('get', 'cm', 'cfg', '-o', 'jsonpath={.data.a}{" "}{.data.b}'))).toBe('1 2');
    expect(await ok(s.kubectl('get', 'ns', '-o', 'jsonpath={.items[*].metadata.name}'))).toBe('default kube-node-lease kube-public kube-system');
  });

  it('lists across namespaces with -A', async () => {
    await ok(s.kubectlWithInput('apiVersion: v1\nkind: Namespace\nmetadata: {name: other}\n', 'create', '-f', '-'));
    await ok(s.kubectlWithInput(POD.replace('name: p1', 'name: p2'), 'create', '-n', 'other', '-f', '-'));
    const all = rows(await ok(s.kubectl('get', 'pods', '-A')));
    expect(all[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(all.slice(1).map((r) => r.slice(0, 2))).toEqual([['default', 'p1'], ['other', 'p2']]);
    const svcs = rows(await ok(s.kubectl('get', 'svc', '--all-namespaces')));
    expect(svcs.slice(1).map((r) => `${r[0]}/${r[1]}`)).toEqual(['default/kubernetes', 'default/web']);
    const sel = rows(await ok(s.kubectl('get', 'pods', '-A', '-l', 'app=p', '--field-selector', 'metadata.namespace=other')));
    expect(sel.slice(1).map((r) => r[1])).toEqual(['p2']);
  });
});

describe('status on create', () => {
  it('a Node keeps the status it is created with (a kubelet registers with it); a Deployment\'s is reset', async () => {
    const node = await s.api('POST', '/api/v1/nodes', {
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'registered' },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' }], capacity: { cpu: '2', pods: '110' } },
    });
    expect(node.status).toBe(201);
    expect(node.body.status).toMatchObject({ conditions: [{ type: 'Ready', status: 'True' }], capacity: { cpu: '2', pods: '110' } });
    const ready = await s.kubectl('get', 'node', 'registered', '-o', 'jsonpath={.status.conditions[0].status}');
    expect(ready.stdout).toBe('True');
    const d = await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'status-reset' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      status: { replicas: 7, readyReplicas: 7 },
    });
    expect(d.status).toBe(201);
    expect(d.body.status?.replicas).toBeUndefined();
  });
});

describe('kubectl describe', () => {
  it('describes a pod', async () => {
    const out = await ok(s.kubectl('describe', 'pod', 'p1'));
    expect(out).toMatch(/^Name:\s+p1$/m);
    expect(out).toMatch(/^Namespace:\s+default$/m);
    expect(out).toMatch(/^Status:\s+Pending$/m);
    expect(out).toMatch(/^Labels:\s+app=p$/m);
    expect(out).toMatch(/^Containers:\n {2}c:\n {4}Image:\s+busybox:1\.36$/m);
    expect(out).toMatch(/^QoS Class:\s+BestEffort$/m);
    expect(out).toMatch(/^Events:\s+<none>$/m);
  });

  it('describes a deployment', async () => {
    const out = await ok(s.kubectl('describe', 'deployment', 'web'));
    expect(out).toMatch(/^Selector:\s+app=web$/m);
    expect(out).toMatch(/^Replicas:\s+2 desired \| 0 updated \| 0 total \| 0 available \| 0 unavailable$/m);
    expect(out).toMatch(/^StrategyType:\s+RollingUpdate$/m);
    expect(out).toMatch(/^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m);
    expect(out).toMatch(/^ {3}nginx:\n {4}Image:\s+nginx:1\.25\n {4}Port:\s+80\/TCP$/m);
  });

  it('describes a service', async () => {
    const out = await ok(s.kubectl('describe', 'svc', 'web'));
    expect(out).toMatch(/^Type:\s+ClusterIP$/m);
    expect(out).toMatch(/^IP Family Policy:\s+SingleStack$/m);
    expect(out).toMatch(/^IP:\s+10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/m);
    expect(out).toMatch(/^Port:\s+<unset>\s+80\/TCP$/m);
    expect(out).toMatch(/^TargetPort:\s+8080\/TCP$/m);
    expect(out).toMatch(/^Session Affinity:\s+None$/m);
  });

  it('describes a namespace', async () => {
    const out = await ok(s.kubectl('describe', 'namespace', 'default'));
    expect(out).toMatch(/^Name:\s+default$/m);
    expect(out).toMatch(/^Labels:\s+kubernetes\.io\/metadata\.name=default$/m);
    expect(out).toMatch(/^Status:\s+Active$/m);
    expect(out).toMatch(/No resource quota\./);
    expect(out).toMatch(/No LimitRange resource\./);
  });
});

describe('kubectl replace, dry runs and delete', () => {
  it('replaces a pod image and a configmap', async () => {
    // As on a real cluster, a pod is replaced from its stored form: admission added fields
    // (the service-account volume, tolerations) that the original manifest lacks.
    const stored = parseYaml(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'yaml')));
    stored.spec.containers[0].image = 'busybox:1.37';
    stored.metadata.labels.replaced = 'yes';
    expect(await ok(s.kubectlWithInput(JSON.stringify(stored), 'replace', '-f', '-'))).toBe('pod/p1 replaced\n');
    expect(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.spec.containers[0].image} {.metadata.labels.replaced}'))).toBe('busybox:1.37 yes');
    const cm = CONFIGMAP.replace('{a: "1", b: "2"}', '{c: "3"}');
    expect(await ok(s.kubectlWithInput(cm, 'replace', '-f', '-'))).toBe('configmap/cfg replaced\n');
    expect(await ok(s.kubectl('get', 'cm', 'cfg', '-o', 'jsonpath={.data}'))).toBe('{"c":"3"}');
  });

  it('refuses a pod update that changes more than images, as a Forbidden field error', async () => {
    const stored = parseYaml(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'yaml')));
    stored.spec.containers[0].command = ['sleep', '60'];
    const r = await s.kubectlWithInput(JSON.stringify(stored), 'replace', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^The Pod "p1" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/);
  });

  it('create --raw and replace --raw send the file as is (over HTTP/2 without a Content-Length)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-'));
    const file = join(dir, 'cm.json');
    await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw' }, data: { a: '1' } }));
    const created = JSON.parse(await ok(s.kubectl('create', '--raw', '/api/v1/namespaces/default/configmaps', '-f', file)));
    expect(created.metadata.name).toBe('raw');
    await writeFile(file, JSON.stringify({ ...created, data: { a: '2' } }));
    const replaced = JSON.parse(await ok(s.kubectl('replace', '--raw', '/api/v1/namespaces/default/configmaps/raw', '-f', file)));
    expect(replaced.data).toEqual({ a: '2' });
    await rm(dir, { recursive: true });
  });

  it('create --dry-run=server stores nothing, and still answers AlreadyExists', async () => {
    const cm = CONFIGMAP.replace('name: cfg', 'name: dry');
    expect(await ok(s.kubectlWithInput(cm, 'create', '--dry-run=server', '-f', '-'))).toBe('configmap/dry created (server dry run)\n');
    const got = await s.kubectl('get', 'cm', 'dry');
    expect(got.stderr).toBe('Error from server (NotFound): configmaps "dry" not found\n');
    const again = await s.kubectlWithInput(CONFIGMAP, 'create', '--dry-run=server', '-f', '-');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('Error from server (AlreadyExists): error when creating "STDIN": configmaps "cfg" already exists\n');
    const yaml = parseYaml(await ok(s.kubectlWithInput(cm, 'create', '--dry-run=server', '-o', 'yaml', '-f', '-')));
    expect(yaml.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(yaml.metadata.resourceVersion).toBeUndefined();
  });

  it('delete --wait returns once the object is gone', async () => {
    await ok(s.kubectlWithInput(CONFIGMAP.replace('name: cfg', 'name: doomed'), 'create', '-f', '-'));
    expect(await ok(s.kubectl('delete', 'cm', 'doomed', '--wait'))).toBe('configmap "doomed" deleted\n');
    expect((await s.api('GET', '/api/v1/namespaces/default/configmaps/doomed')).status).toBe(404);
    // An unscheduled pod has nothing to wait for: it goes at once.
    await ok(s.kubectlWithInput(POD.replace('name: p1', 'name: gone'), 'create', '-f', '-'));
    expect(await ok(s.kubectl('delete', 'pod', 'gone', '--wait', '--timeout=20s'))).toBe('pod "gone" deleted\n');
    expect((await s.api('GET', '/api/v1/namespaces/default/pods/gone')).status).toBe(404);
  });
});

describe('kubectl errors', () => {
  it('prints NotFound for a missing pod', async () => {
    const r = await s.kubectl('get', 'pod', 'x');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error from server (NotFound): pods "x" not found\n');
  });

  it('prints AlreadyExists when created twice', async () => {
    const r = await s.kubectlWithInput(POD, 'create', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error from server (AlreadyExists): error when creating "STDIN": pods "p1" already exists\n');
  });

  it('prints Invalid with the field message for a bad name', async () => {
    const r = await s.kubectlWithInput(CONFIGMAP.replace('name: cfg', 'name: Bad_Name'), 'create', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`The ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n`);
  });

  it('rejects an unknown field with --validate=strict', async () => {
    const bad = DEPLOYMENT.replace('name: web', 'name: strict').replace('  replicas: 2\n', '  replicas: 2\n  foo: bar\n');
    const r = await s.kubectlWithInput(bad, 'create', '--validate=strict', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"\n');
    expect((await s.api('GET', '/apis/apps/v1/namespaces/default/deployments/strict')).status).toBe(404);
  });

  it('refuses a quantity that does not parse, as upstream\'s decoder does', async () => {
    const bad = DEPLOYMENT.replace('name: web', 'name: badqty').replace('image: nginx:1.25', 'image: nginx:1.25\n        resources: {limits: {cpu: abc}}');
    await createRefused(bad, 'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'\n');
    const good = await s.kubectlWithInput(bad.replace('name: badqty', 'name: goodqty').replace('cpu: abc', 'cpu: 0.5'), 'create', '-f', '-');
    expect(good.code).toBe(0);
  });

  it('words a wrong JSON type as upstream\'s Go decoder: the struct, the field path and the Go type', async () => {
    const bad = DEPLOYMENT.replace('name: web', 'name: badtype').replace('  replicas: 2\n', '  replicas: "two"\n');
    await createRefused(bad, 'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n');
    const ports = await s.kubectlWithInput(bad.replace('replicas: "two"', 'replicas: 2').replace('ports: [{containerPort: 80}]', 'ports: {containerPort: 80}'), 'create', '-f', '-');
    expect(ports.stderr).toContain('json: cannot unmarshal object into Go struct field Container.spec.template.spec.containers.ports of type []v1.ContainerPort');
  });

  it('refuses a Deployment whose selector does not select its template\'s labels', async () => {
    const bad = DEPLOYMENT.replace('name: web', 'name: mismatch').replace('metadata: {labels: {app: web}}', 'metadata: {labels: {app: other, tier: x}}');
    await createRefused(bad, 'The Deployment "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"x"}: `selector` does not match template `labels`\n');
  });

  it('answers 400 for an integer query parameter that does not parse, worded as upstream\'s parameter codec', async () => {
    for (const path of ['/api/v1/namespaces/default/configmaps?limit=x', '/api/v1/namespaces/default/configmaps?timeoutSeconds=1.5', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=soon']) {
      const r = await s.api('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body.message, path).toMatch(/^strconv\.ParseInt: parsing "(x|1\.5|soon)": invalid syntax$/);
    }
    const del = await s.kubectl('delete', '--raw', '/api/v1/namespaces/default/configmaps/nope?gracePeriodSeconds=later');
    expect(del.stderr).toContain('Error from server (BadRequest): strconv.ParseInt: parsing "later": invalid syntax');
    expect((await s.api('GET', '/api/v1/namespaces/default/configmaps?limit=-1')).status).toBe(200); // as upstream: no limit
  });

  it('refuses an empty selector, worded per kind as upstream\'s apps validation', async () => {
    const bad = DEPLOYMENT.replace('name: web', 'name: empty').replace('selector: {matchLabels: {app: web}}', 'selector: {}');
    await createRefused(bad, 'The Deployment "empty" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment\n');
    const ds = await s.kubectlWithInput(bad.replace('kind: Deployment', 'kind: DaemonSet').replace('  replicas: 2\n', ''), 'create', '-f', '-');
    expect(ds.stderr).toContain('spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset');
  });

  it('warns about an unknown field with --validate=warn and creates the object', async () => {
    const bad = CONFIGMAP.replace('name: cfg', 'name: warned').replace(/^data:/m, 'foo: bar\ndata:');
    const r = await s.kubectlWithInput(bad, 'create', '--validate=warn', '-f', '-');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('configmap/warned created\n');
    expect(r.stderr).toBe('Warning: unknown field "foo"\n');
  });
});

describe('kubectl get events', () => {
  it('lists events with the columns of a real cluster', async () => {
    const empty = await s.kubectl('get', 'events', '-n', 'kube-public');
    expect(empty.stderr).toBe('No resources found in kube-public namespace.\n');
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const uid = JSON.parse(await ok(s.kubectl('get', 'pod', 'p1', '-o', 'json'))).metadata.uid as string;
    const ev = await s.api('POST', '/api/v1/namespaces/default/events', {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'p1.abc' },
      involvedObject: { kind: 'Pod', name: 'p1', namespace: 'default', apiVersion: 'v1', uid },
      reason: 'Scheduled', message: 'Successfully assigned default/p1 to node-1', type: 'Normal',
      source: { component: 'default-scheduler' }, firstTimestamp: now, lastTimestamp: now, count: 1,
    });
    expect(ev.status).toBe(201);
    const out = rows(await ok(s.kubectl('get', 'events')));
    expect(out[0]).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(out[1]!.slice(1)).toEqual(['Normal', 'Scheduled', 'pod/p1', 'Successfully assigned default/p1 to node-1']);
    const described = await ok(s.kubectl('describe', 'pod', 'p1'));
    expect(described).toMatch(/Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/p1 to node-1/);
  });
});
