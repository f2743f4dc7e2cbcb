// The default-off plugins turned on by flag, configured through --admission-control-config-file, as the real kubectl
// meets them: namespace node selectors and tolerations, extended-resource tolerations, external IPs, owner references
// and the Event rate limit.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admission-default-off-'));
  // PodNodeSelector's file is plain YAML, named by `path`.
  await writeFile(join(dir, 'node-selector.yaml'), 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: ""\n  sched: env=prod,disk=ssd\n');
  await writeFile(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: PodNodeSelector',
    '  path: node-selector.yaml',
    '- name: PodTolerationRestriction',
    '  configuration:',
    '    apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1',
    '    kind: Configuration',
    '    default: [{key: cluster-default, operator: Exists, effect: NoSchedule}]',
    '- name: EventRateLimit',
    '  configuration:',
    '    apiVersion: eventratelimit.admission.k8s.io/v1alpha1',
    '    kind: Configuration',
    '    limits: [{type: Namespace, qps: 1, burst: 3}]',
  ].join('\n'));
  s = await startTestApiServer({
    storageBackend: 'memory',
    enableAdmissionPlugins: ['LimitPodHardAntiAffinityTopology', 'PodNodeSelector', 'PodTolerationRestriction', 'EventRateLimit', 'ExtendedResourceToleration', 'OwnerReferencesPermissionEnforcement', 'DenyServiceExternalIPs'],
    admissionControlConfigFile: join(dir, 'admission.yaml'),
  });
  await ok('create', 'namespace', 'sched');
  await ok('annotate', 'namespace', 'sched', 'scheduler.alpha.kubernetes.io/node-selector=env=prod',
    'scheduler.alpha.kubernetes.io/defaultTolerations=[{"key":"dedicated","operator":"Equal","value":"prod","effect":"NoSchedule"}]');
});
afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const create = (yaml: string, ...args: string[]) => s.kubectlWithInput(yaml, 'create', '-f', '-', ...args);
const podYaml = (name: string, spec: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n${spec}  containers:\n  - name: c\n    image: nginx\n`;

describe('default-off admission plugins, enabled', () => {
  it('gives a pod its namespace\'s node selector and default tolerations', async () => {
    await ok('run', 'p', '-n', 'sched', '--image=nginx', '--overrides={"spec":{"nodeSelector":{"disk":"ssd"}}}');
    const pod = JSON.parse(await ok('get', 'pod', 'p', '-n', 'sched', '-o', 'json'));
    expect(pod.spec.nodeSelector).toEqual({ env: 'prod', disk: 'ssd' });
    expect(pod.spec.tolerations).toContainEqual({ key: 'dedicated', operator: 'Equal', value: 'prod', effect: 'NoSchedule' });
    // elsewhere the cluster default of the configuration
    await ok('run', 'q', '--image=nginx');
    expect(JSON.parse(await ok('get', 'pod', 'q', '-o', 'json')).spec.tolerations).toContainEqual({ key: 'cluster-default', operator: 'Exists', effect: 'NoSchedule' });
  });

  it('refuses a pod whose selector conflicts with its namespace\'s, or leaves its whitelist, with upstream\'s messages', async () => {
    const conflict = await create(podYaml('bad', '  nodeSelector: {env: dev}\n'), '-n', 'sched');
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('pods "bad" is forbidden: pod node label selector conflicts with its namespace node label selector');
    const outside = await create(podYaml('gpu', '  nodeSelector: {gpu: "yes"}\n'), '-n', 'sched');
    expect(outside.stderr).toContain('pods "gpu" is forbidden: pod node label selector labels conflict with its namespace whitelist');
    const zone = await create(podYaml('zone', '  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {labelSelector: {}, topologyKey: topology.kubernetes.io/zone}\n'));
    expect(zone.stderr).toContain('pods "zone" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed');
  });

  it('refuses tolerations outside the namespace\'s whitelist with upstream\'s plain error', async () => {
    await ok('create', 'namespace', 'wl');
    await ok('annotate', 'namespace', 'wl', 'scheduler.alpha.kubernetes.io/tolerationsWhitelist=[{"key":"allowed","operator":"Exists"}]');
    const r = await create(podYaml('t', '  tolerations: [{key: other, operator: Exists}]\n'), '-n', 'wl');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server: error when creating "STDIN": pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  });

  it('makes a pod that asks for an extended resource tolerate its taint', async () => {
    await cleanStdout(create(podYaml('dev', '').replace('image: nginx\n', 'image: nginx\n    resources: {requests: {example.com/gpu: "1"}, limits: {example.com/gpu: "1"}}\n')));
    const pod = JSON.parse(await ok('get', 'pod', 'dev', '-o', 'json'));
    expect(pod.spec.tolerations).toContainEqual({ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' });
  });

  it('refuses new external IPs on a Service', async () => {
    const svc = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: ext\nspec:\n  ports: [{port: 80}]\n  externalIPs: [203.0.113.7]\n';
    const r = await create(svc);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('services "ext" is forbidden: Use of external IPs is denied by admission control');
    await ok('create', 'service', 'clusterip', 'plain', '--tcp=80');
    const patched = await s.kubectl('patch', 'service', 'plain', '-p', '{"spec":{"externalIPs":["203.0.113.7"]}}');
    expect(patched.stderr).toContain('services "plain" is forbidden: Use of external IPs is denied by admission control');
  });

  it('refuses an ownerReference from a user who may not delete the object', async () => {
    await ok('create', 'namespace', 'owned');
    await ok('create', 'role', 'cm-editor', '-n', 'owned', '--verb=get,patch,create', '--resource=configmaps');
    await ok('create', 'rolebinding', 'jane-edits', '-n', 'owned', '--role=cm-editor', '--user=jane');
    await ok('create', 'configmap', 'owner', '-n', 'owned');
    const uid = (await ok('get', 'configmap', 'owner', '-n', 'owned', '-o', 'jsonpath={.metadata.uid}')).trim();
    await ok('create', 'configmap', 'cm', '-n', 'owned', '--as=jane');
    const ref = (block: boolean) => JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid, ...(block ? { blockOwnerDeletion: true } : {}) }] } });
    const patched = await s.kubectl('patch', 'configmap', 'cm', '-n', 'owned', '--as=jane', '-p', ref(false));
    expect(patched.code).not.toBe(0);
    expect(patched.stderr).toContain('configmaps "cm" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
    // creating with a blocking reference needs the owner's finalizers
    const blocking = await s.kubectlWithInput(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'child', ...JSON.parse(ref(true)).metadata } }), 'create', '-f', '-', '-n', 'owned', '--as=jane');
    expect(blocking.stderr).toContain('configmaps "child" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
    // the admin may do both
    await ok('patch', 'configmap', 'cm', '-n', 'owned', '-p', ref(true));
  });

  it('refuses Events over the namespace\'s bucket with 429', async () => {
    await ok('create', 'namespace', 'ev');
    const event = (i: number, ns = 'ev') => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: `e${i}` }, involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'R', message: 'm' });
    // Twenty in one kubectl run: far faster than the bucket's one a second refills.
    const r = await s.kubectlWithInput(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: 20 }, (_, i) => event(i)) }), 'create', '-f', '-', '-n', 'ev');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (TooManyRequests): error when creating "STDIN": Too many requests: limit reached on type Namespace for key ev');
    const created = r.stdout.split('\n').filter((l) => l.includes('created')).length;
    expect(created).toBeGreaterThanOrEqual(3);
    expect(created).toBeLessThan(20);
    // another namespace has its own bucket
    await ok('create', 'namespace', 'ev2');
    await cleanStdout(s.kubectlWithInput(JSON.stringify(event(0, 'ev2')), 'create', '-f', '-', '-n', 'ev2'));
  });
});
