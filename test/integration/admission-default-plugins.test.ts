// The default admission plugins seen through the real kubectl over HTTPS: LimitRanger,
// ResourceQuota, Priority, DefaultTolerationSeconds and PodSecurity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const apply = async (yaml: string, ...args: string[]) => s.kubectlWithInput(yaml, 'create', '-f', '-', ...args);
const podYaml = (name: string, extra = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n${extra}  containers:\n  - name: c\n    image: nginx\n`;

async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('default admission plugins', () => {
  it('LimitRanger defaults a container\'s requests and limits from the LimitRange', async () => {
    await ok('create', 'namespace', 'lr');
    expect((await apply('apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: lr\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 500m, memory: 128Mi}\n    defaultRequest: {cpu: 250m}\n    max: {cpu: "1"}\n', '-n', 'lr')).code).toBe(0);
    await ok('run', 'web', '--image=nginx', '-n', 'lr');
    const pod = JSON.parse(await ok('get', 'pod', 'web', '-n', 'lr', '-o', 'json'));
    expect(pod.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '128Mi' } });
    expect(pod.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web');
    const r = await s.kubectl('run', 'big', '--image=nginx', '-n', 'lr', '--overrides', JSON.stringify({ spec: { containers: [{ name: 'big', image: 'nginx', resources: { limits: { cpu: '2' } } }] } }));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
  });

  it('ResourceQuota refuses past spec.hard with upstream\'s message and keeps status.used', async () => {
    await ok('create', 'namespace', 'rq');
    await ok('create', 'quota', 'q', '--hard=pods=2,configmaps=5,count/deployments.apps=1', '-n', 'rq');
    await eventually(async () => JSON.parse(await ok('get', 'quota', 'q', '-n', 'rq', '-o', 'json')).status?.used?.pods === '0');
    await ok('run', 'a', '--image=nginx', '-n', 'rq');
    await ok('run', 'b', '--image=nginx', '-n', 'rq');
    const r = await s.kubectl('run', 'c', '--image=nginx', '-n', 'rq');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Forbidden): pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
    const describe = await ok('describe', 'quota', 'q', '-n', 'rq');
    expect(describe).toMatch(/pods\s+2\s+2/);
    expect(describe).toMatch(/count\/deployments\.apps\s+0\s+1/);

    await ok('create', 'deployment', 'd1', '--image=nginx', '-n', 'rq');
    const d2 = await s.kubectl('create', 'deployment', 'd2', '--image=nginx', '-n', 'rq');
    expect(d2.stderr).toContain('deployments.apps "d2" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');

    // A deletion frees the quota: status.used follows and the next create is admitted.
    await ok('delete', 'pod', 'a', '-n', 'rq', '--wait=false');
    await eventually(async () => JSON.parse(await ok('get', 'quota', 'q', '-n', 'rq', '-o', 'json')).status.used.pods === '1');
    await ok('run', 'c', '--image=nginx', '-n', 'rq');
    expect(JSON.parse(await ok('get', 'quota', 'q', '-n', 'rq', '-o', 'json')).status).toEqual({
      hard: { configmaps: '5', 'count/deployments.apps': '1', pods: '2' },
      used: { configmaps: '0', 'count/deployments.apps': '1', pods: '2' },
    });
  });

  it('ResourceQuota on cpu requires requests and sums them', async () => {
    await ok('create', 'namespace', 'rqcpu');
    await ok('create', 'quota', 'compute', '--hard=requests.cpu=1,requests.memory=1Gi', '-n', 'rqcpu');
    const r = await s.kubectl('run', 'bare', '--image=nginx', '-n', 'rqcpu');
    expect(r.stderr).toContain('pods "bare" is forbidden: failed quota: compute: must specify requests.cpu for: bare; requests.memory for: bare');
    const withRequests = (name: string, cpu: string) => ['run', name, '--image=nginx', '-n', 'rqcpu', '--overrides', JSON.stringify({ spec: { containers: [{ name, image: 'nginx', resources: { requests: { cpu, memory: '100Mi' } } }] } })];
    await ok(...withRequests('p1', '600m'));
    const over = await s.kubectl(...withRequests('p2', '500m'));
    expect(over.stderr).toContain('pods "p2" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
    const status = JSON.parse(await ok('get', 'quota', 'compute', '-n', 'rqcpu', '-o', 'json')).status;
    expect(status.used).toEqual({ 'requests.cpu': '600m', 'requests.memory': '100Mi' });
  });

  it('Priority fills spec.priority from the PriorityClass and refuses an unknown class', async () => {
    const pcs = JSON.parse(await ok('get', 'priorityclasses', '-o', 'json')).items.map((p: { metadata: { name: string }; value: number }) => [p.metadata.name, p.value]);
    expect(pcs).toEqual(expect.arrayContaining([['system-cluster-critical', 2000000000], ['system-node-critical', 2000001000]]));
    await ok('create', 'priorityclass', 'high', '--value=1000', '--preemption-policy=Never');
    expect((await apply(podYaml('prio', '  priorityClassName: high\n'))).code).toBe(0);
    const pod = JSON.parse(await ok('get', 'pod', 'prio', '-o', 'json'));
    expect(pod.spec).toMatchObject({ priority: 1000, priorityClassName: 'high', preemptionPolicy: 'Never' });
    await ok('run', 'plain', '--image=nginx');
    const plain = JSON.parse(await ok('get', 'pod', 'plain', '-o', 'json'));
    // No class and no global default: priority 0 and PreemptLowerPriority, as upstream; serviceAccount mirrors serviceAccountName.
    expect(plain.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority', serviceAccountName: 'default', serviceAccount: 'default' });
    const bad = await apply(podYaml('noclass', '  priorityClassName: nope\n'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('pods "noclass" is forbidden: no PriorityClass with name nope was found');
    await ok('create', 'priorityclass', 'def', '--value=7', '--global-default');
    const second = await s.kubectl('create', 'priorityclass', 'def2', '--value=8', '--global-default');
    expect(second.stderr).toContain('priorityclasses.scheduling.k8s.io "def2" is forbidden: PriorityClass def is already marked as default. Only one default can exist');
    await ok('run', 'defaulted', '--image=nginx');
    expect(JSON.parse(await ok('get', 'pod', 'defaulted', '-o', 'json')).spec).toMatchObject({ priority: 7, priorityClassName: 'def' });
  });

  it('DefaultTolerationSeconds adds the not-ready and unreachable tolerations', async () => {
    await ok('run', 'tol', '--image=nginx');
    const pod = JSON.parse(await ok('get', 'pod', 'tol', '-o', 'json'));
    expect(pod.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(pod.spec.volumes?.[0]?.name).toMatch(/^kube-api-access-/);
    // as upstream's handler records them before mutating admission: the writer owns what it sent and its defaults,
    // not the tolerations, priority, service account and token volume the plugins added
    const [entry] = JSON.parse(await ok('get', 'pod', 'tol', '-o', 'json', '--show-managed-fields')).metadata.managedFields;
    expect(Object.keys(entry.fieldsV1['f:spec'])).toEqual([
      'f:containers', 'f:dnsPolicy', 'f:enableServiceLinks', 'f:restartPolicy', 'f:schedulerName', 'f:securityContext', 'f:terminationGracePeriodSeconds',
    ]);
    expect(Object.keys(entry.fieldsV1['f:spec']['f:containers']['k:{"name":"tol"}'])).toEqual([
      '.', 'f:image', 'f:imagePullPolicy', 'f:name', 'f:resources', 'f:terminationMessagePath', 'f:terminationMessagePolicy',
    ]);
  });

  it('PodSecurity restricted refuses a privileged pod and warns on a Deployment', async () => {
    await ok('create', 'namespace', 'secure');
    await ok('label', 'namespace', 'secure', 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/warn=restricted');
    const priv = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: priv\nspec:\n  containers:\n  - name: c\n    image: nginx\n    securityContext:\n      privileged: true\n`;
    const r = await apply(priv, '-n', 'secure');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Forbidden): error when creating "STDIN": pods "priv" is forbidden: violates PodSecurity "restricted:latest": '
      + 'privileged (container "c" must not set securityContext.privileged=true), '
      + 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), '
      + 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), '
      + 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), '
      + 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
    const d = await s.kubectl('create', 'deployment', 'web', '--image=nginx', '-n', 'secure');
    expect(d.code).toBe(0);
    expect(d.stderr).toContain('Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false)');
    const good = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: good\nspec:\n  securityContext:\n    runAsNonRoot: true\n    seccompProfile: {type: RuntimeDefault}\n  containers:\n  - name: c\n    image: nginx\n    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities: {drop: [ALL]}\n`;
    const g = await apply(good, '-n', 'secure');
    expect(g.stderr).toBe('');
    expect(g.code).toBe(0);
    const badLabel = await s.kubectl('label', 'namespace', 'secure', '--overwrite', 'pod-security.kubernetes.io/enforce=strict');
    // upstream's answer: 422 Invalid, the label errors as the message and no causes, so kubectl prints only this line
    expect(badLabel.stderr).toBe('The namespaces "secure" is invalid\n');
  });

  it('PodSecurity honours enforce-version: a check newer than the pinned version is not applied', async () => {
    await ok('create', 'namespace', 'pinned');
    await ok('label', 'namespace', 'pinned', 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/enforce-version=v1.22');
    const root = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  securityContext:\n    runAsNonRoot: true\n    runAsUser: 0\n    seccompProfile: {type: RuntimeDefault}\n  containers:\n  - name: c\n    image: nginx\n    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities: {drop: [ALL]}\n`;
    // runAsUser=0 is refused by restricted only from v1.23 on.
    const admitted = await apply(root('root-ok'), '-n', 'pinned');
    expect(admitted.stderr).toBe('');
    const relabel = await s.kubectl('label', 'namespace', 'pinned', '--overwrite', 'pod-security.kubernetes.io/enforce-version=v1.23');
    expect(relabel.stderr).toContain('Warning: existing pods in namespace "pinned" violate the new PodSecurity enforce level "restricted:v1.23"');
    expect(relabel.stderr).toContain('Warning: root-ok: runAsUser=0');
    const refused = await apply(root('root-refused'), '-n', 'pinned');
    expect(refused.stderr).toContain('pods "root-refused" is forbidden: violates PodSecurity "restricted:v1.23": runAsUser=0 (pod must not set runAsUser=0)');
    const bad = await s.kubectl('label', 'namespace', 'pinned', '--overwrite', 'pod-security.kubernetes.io/enforce-version=1.23');
    expect(bad.stderr).toBe('The namespaces "pinned" is invalid\n');
    const raw = await s.api('PATCH', '/api/v1/namespaces/pinned', { metadata: { labels: { 'pod-security.kubernetes.io/enforce-version': '1.23' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(raw.body).toMatchObject({ code: 422, reason: 'Invalid', message: 'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "1.23": must be "latest" or "v1.x"' });
  });

  it('PodSecurity warns about existing pods when a namespace gets a stricter enforce level', async () => {
    await ok('create', 'namespace', 'later');
    await ok('run', 'loose', '--image=nginx', '-n', 'later');
    const r = await s.kubectl('label', 'namespace', 'later', 'pod-security.kubernetes.io/enforce=restricted');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: existing pods in namespace "later" violate the new PodSecurity enforce level "restricted:latest"');
    expect(r.stderr).toContain('Warning: loose: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
  });
});
