// The real kubectl changing objects: label and annotate, the three patch types, client-side apply
// twice, server-side apply with a conflict between field managers, and scale (the scale subresource).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';
import { P1_POD as POD, WEB_DEPLOYMENT } from './kubectl-objects.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

// A second container, so that patches have a list to merge into.
const DEPLOYMENT = `${WEB_DEPLOYMENT}      - name: sidecar
        image: busybox:1.36
        command: [sleep, infinity]
`;

const json = async (...args: string[]): Promise<any> => JSON.parse(await ok(s.kubectl('get', ...args, '-o', 'json')));

beforeAll(async () => {
  await ok(s.kubectlWithInput(DEPLOYMENT, 'create', '-f', '-'));
  await ok(s.kubectlWithInput(POD, 'create', '-f', '-'));
});

describe('kubectl label and annotate', () => {
  it('adds, refuses to overwrite without --overwrite, overwrites and removes a label', async () => {
    expect(await ok(s.kubectl('label', 'pod', 'p1', 'tier=frontend'))).toBe('pod/p1 labeled\n');
    const again = await s.kubectl('label', 'pod', 'p1', 'tier=backend');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("error: 'tier' already has a value (frontend), and --overwrite is false\n");
    expect(await ok(s.kubectl('label', 'pod', 'p1', 'tier=backend', '--overwrite'))).toBe('pod/p1 labeled\n');
    expect((await json('pod', 'p1')).metadata.labels).toEqual({ app: 'p', tier: 'backend' });
    expect(await ok(s.kubectl('get', 'pods', '-l', 'tier=backend', '-o', 'name'))).toBe('pod/p1\n');
    expect(await ok(s.kubectl('label', 'pod', 'p1', 'tier-'))).toBe('pod/p1 unlabeled\n');
    expect((await json('pod', 'p1')).metadata.labels).toEqual({ app: 'p' });
  });

  it('adds, overwrites and removes an annotation', async () => {
    expect(await ok(s.kubectl('annotate', 'deploy', 'web', 'owner=team-a'))).toBe('deployment.apps/web annotated\n');
    const again = await s.kubectl('annotate', 'deploy', 'web', 'owner=team-b');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("error: --overwrite is false but found the following declared annotation(s): 'owner' already has a value (team-a)\n");
    expect(await ok(s.kubectl('annotate', 'deploy', 'web', 'owner=team-b', '--overwrite'))).toBe('deployment.apps/web annotated\n');
    expect((await json('deploy', 'web')).metadata.annotations).toEqual({ owner: 'team-b' });
    expect(await ok(s.kubectl('annotate', 'deploy', 'web', 'owner-'))).toBe('deployment.apps/web annotated\n');
    const dep = await json('deploy', 'web');
    expect(dep.metadata.annotations).toBeUndefined();
    // A Deployment's annotations count in its generation (upstream's strategy: they are copied to its ReplicaSets):
    // three changes of them
    expect(dep.metadata.generation).toBe(4);
  });
});

describe('kubectl patch', () => {
  it('--type=strategic merges containers by name', async () => {
    const patch = JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } } });
    expect(await ok(s.kubectl('patch', 'deployment', 'web', '--type=strategic', '-p', patch))).toBe('deployment.apps/web patched\n');
    const dep = await json('deploy', 'web');
    expect(dep.spec.template.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:1.26', 'sidecar=busybox:1.36']);
    expect(dep.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(dep.metadata.generation).toBe(5);
    // Strategic is kubectl's default, and a $patch: delete directive removes one container by name.
    const del = JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } });
    await ok(s.kubectl('patch', 'deployment', 'web', '-p', del));
    expect((await json('deploy', 'web')).spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['nginx']);
  });

  it('--type=merge replaces lists and removes keys set to null', async () => {
    const patch = JSON.stringify({ metadata: { labels: { extra: 'yes' } }, spec: { template: { spec: { containers: [{ name: 'only', image: 'redis:7' }] } } } });
    expect(await ok(s.kubectl('patch', 'deployment', 'web', '--type=merge', '-p', patch))).toBe('deployment.apps/web patched\n');
    let dep = await json('deploy', 'web');
    expect(dep.metadata.labels).toEqual({ app: 'web', extra: 'yes' });
    expect(dep.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['only']);
    await ok(s.kubectl('patch', 'deployment', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"extra":null}}}'));
    dep = await json('deploy', 'web');
    expect(dep.metadata.labels).toEqual({ app: 'web' });
  });

  it('--type=json applies operations in order, and a failed test op changes nothing', async () => {
    const ops = JSON.stringify([
      { op: 'replace', path: '/spec/replicas', value: 4 },
      { op: 'add', path: '/metadata/labels/json', value: 'patched' },
      { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'second', image: 'busybox:1.36' } },
    ]);
    expect(await ok(s.kubectl('patch', 'deployment', 'web', '--type=json', '-p', ops))).toBe('deployment.apps/web patched\n');
    const dep = await json('deploy', 'web');
    expect(dep.spec.replicas).toBe(4);
    expect(dep.metadata.labels.json).toBe('patched');
    expect(dep.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['only', 'second']);
    const failing = JSON.stringify([{ op: 'test', path: '/spec/replicas', value: 1 }, { op: 'replace', path: '/spec/replicas', value: 9 }]);
    const r = await s.kubectl('patch', 'deployment', 'web', '--type=json', '-p', failing);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('The request is invalid: the server rejected our request due to an error in our request\n');
    expect((await json('deploy', 'web')).spec.replicas).toBe(4);
  });

  it('reports a patch that changes nothing', async () => {
    expect(await ok(s.kubectl('patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":4}}'))).toBe('deployment.apps/web patched (no change)\n');
  });
});

describe('kubectl scale', () => {
  it('scales a deployment through the scale subresource', async () => {
    expect(await ok(s.kubectl('scale', 'deployment', 'web', '--replicas=3'))).toBe('deployment.apps/web scaled\n');
    expect((await json('deploy', 'web')).spec.replicas).toBe(3);
    const scale = await s.api('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale');
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { selector: 'app=web' } });
    const wrong = await s.kubectl('scale', 'deployment', 'web', '--replicas=5', '--current-replicas=2');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('error: Expected replicas to be 2, was 3\n');
    // upstream's Scale printer: NAME DESIRED AVAILABLE AGE
    const table = (await ok(s.kubectl('get', 'deployment', 'web', '--subresource=scale'))).split('\n');
    expect(table[0]!.split(/\s+/)).toEqual(['NAME', 'DESIRED', 'AVAILABLE', 'AGE']);
    expect(table[1]!.split(/\s+/).slice(0, 2)).toEqual(['web', '3']);
  });
});

const CM1 = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
  labels: {keep: "yes", drop: "yes"}
data:
  a: "1"
  b: "2"
`;
const CM2 = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
  labels: {keep: "yes"}
data:
  a: "10"
`;

describe('kubectl apply (client-side)', () => {
  it('creates, then updates, removing fields dropped from the manifest', async () => {
    expect(await ok(s.kubectlWithInput(CM1, 'apply', '-f', '-'))).toBe('configmap/cfg created\n');
    const first = await json('cm', 'cfg');
    expect(JSON.parse(first.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])).toMatchObject({ data: { a: '1', b: '2' } });
    expect(await ok(s.kubectlWithInput(CM1, 'apply', '-f', '-'))).toBe('configmap/cfg unchanged\n');
    // Someone else's label survives: apply only removes what it once applied.
    await ok(s.kubectl('label', 'cm', 'cfg', 'other=x'));
    expect(await ok(s.kubectlWithInput(CM2, 'apply', '-f', '-'))).toBe('configmap/cfg configured\n');
    const second = await json('cm', 'cfg');
    expect(second.data).toEqual({ a: '10' });
    expect(second.metadata.labels).toEqual({ keep: 'yes', other: 'x' });
    expect(JSON.parse(second.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).data).toEqual({ a: '10' });
    expect(Number(second.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
  });

  it('updates a deployment container by name', async () => {
    const dep = DEPLOYMENT.replace('name: web', 'name: applied');
    expect(await ok(s.kubectlWithInput(dep, 'apply', '-f', '-'))).toBe('deployment.apps/applied created\n');
    const changed = dep.replace('nginx:1.25', 'nginx:1.27').replace(/ {6}- name: sidecar\n.*\n.*\n/, '');
    expect(await ok(s.kubectlWithInput(changed, 'apply', '-f', '-'))).toBe('deployment.apps/applied configured\n');
    const got = await json('deploy', 'applied');
    expect(got.spec.template.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:1.27']);
    expect(got.metadata.generation).toBe(2);
  });
});

describe('kubectl diff (server-side dry run)', () => {
  it('shows the change without storing it, keeping the stored resourceVersion', async () => {
    const before = await json('cm', 'cfg');
    const r = await s.kubectlWithInput(CM2.replace('a: "10"', 'a: "11"'), 'diff', '-f', '-');
    expect(r.code).toBe(1); // 1: differences found
    expect(r.stdout).toMatch(/^-  a: "10"\n\+  a: "11"$/m);
    expect(r.stdout).not.toMatch(/resourceVersion/);
    expect(r.stderr).toBe('');
    const after = await json('cm', 'cfg');
    expect(after.data).toEqual(before.data);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const same = await s.kubectlWithInput(CM2, 'diff', '-f', '-');
    expect(same).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('response media types', () => {
  it('answers application/json without a charset, for objects and for errors', async () => {
    const got = await s.api('GET', '/api/v1/namespaces/default/configmaps/cfg');
    expect(got.headers['content-type']).toBe('application/json');
    const missing = await s.api('GET', '/api/v1/namespaces/default/configmaps/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/json');
    const table = await s.api('GET', '/api/v1/namespaces/default/configmaps', undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.headers['content-type']).toBe('application/json');
    expect(table.body.kind).toBe('Table');
  });
});

const SSA_A = `apiVersion: v1
kind: ConfigMap
metadata: {name: ssa}
data: {a: "1", b: "2"}
`;
const SSA_B = `apiVersion: v1
kind: ConfigMap
metadata: {name: ssa}
data: {a: "changed"}
`;

/** Managed fields are being wired in by another change; until every write records them, skip. */
async function skipUnlessManagedFields(ctx: { skip: (note?: string) => void }): Promise<void> {
  const cm = await s.api('GET', '/api/v1/namespaces/default/configmaps/cfg');
  if (!Array.isArray(cm.body.metadata?.managedFields)) ctx.skip('managed fields are not recorded yet');
}

describe('kubectl apply --server-side', () => {
  it('applies, records the manager, and reports a conflict with another manager', async (ctx) => {
    await skipUnlessManagedFields(ctx);
    expect(await ok(s.kubectlWithInput(SSA_A, 'apply', '--server-side', '--field-manager=other', '-f', '-'))).toBe('configmap/ssa serverside-applied\n');
    const cm = parseYaml(await ok(s.kubectl('get', 'cm', 'ssa', '-o', 'yaml', '--show-managed-fields')));
    expect(cm.metadata.managedFields).toEqual([expect.objectContaining({
      manager: 'other', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } },
    })]);

    const conflict = await s.kubectlWithInput(SSA_B, 'apply', '--server-side', '-f', '-');
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/^error: Apply failed with 1 conflict: conflict with "other": \.data\.a\nPlease review the fields above--they currently have other managers\./);
    expect((await json('cm', 'ssa')).data).toEqual({ a: '1', b: '2' });
  });

  it('--force-conflicts takes the field over', async (ctx) => {
    await skipUnlessManagedFields(ctx);
    expect(await ok(s.kubectlWithInput(SSA_B, 'apply', '--server-side', '--force-conflicts', '-f', '-'))).toBe('configmap/ssa serverside-applied\n');
    const cm = parseYaml(await ok(s.kubectl('get', 'cm', 'ssa', '-o', 'yaml', '--show-managed-fields')));
    expect(cm.data).toEqual({ a: 'changed', b: '2' });
    const byManager = Object.fromEntries(cm.metadata.managedFields.map((m: { manager: string; fieldsV1: unknown }) => [m.manager, m.fieldsV1]));
    expect(byManager).toEqual({ other: { 'f:data': { 'f:b': {} } }, kubectl: { 'f:data': { 'f:a': {} } } });
  });

  it('a manager dropping a field it alone owns removes it', async (ctx) => {
    await skipUnlessManagedFields(ctx);
    await ok(s.kubectlWithInput(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa}\ndata: {a: "1"}\n`, 'apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'));
    expect((await json('cm', 'ssa')).data).toEqual({ a: '1' });
  });

  it('records what a writer sent and its defaults, not what the server set after (upstream tracks before the strategy)', async () => {
    await ok(s.kubectl('create', 'service', 'nodeport', 'tracked', '--tcp=80:8080'));
    await ok(s.kubectl('label', 'service', 'tracked', 'tier=web'));
    const svc = parseYaml(await ok(s.kubectl('get', 'service', 'tracked', '-o', 'yaml', '--show-managed-fields')));
    expect(svc.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(svc.spec.ipFamilyPolicy).toBe('SingleStack');
    const [created, labelled] = svc.metadata.managedFields;
    expect(created.manager).toBe('kubectl-create');
    expect(Object.keys(created.fieldsV1['f:spec'])).toEqual(['f:externalTrafficPolicy', 'f:internalTrafficPolicy', 'f:ports', 'f:selector', 'f:sessionAffinity', 'f:type']);
    expect(labelled).toMatchObject({ manager: 'kubectl-label', operation: 'Update', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } } });
  });

  it('owns what a create added to the zero Deployment: its pointer structs with their own path, not its value structs', async () => {
    const dep = JSON.parse(await ok(s.kubectl('create', 'deployment', 'mfcheck', '--image=nginx', '--dry-run=server', '-o', 'json', '--show-managed-fields')));
    const nginx = { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:resources': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {} };
    // as a cluster's managedFields show it: no "." under spec, strategy, template or containers (there in the zero
    // object, containers as null), none for the template's creationTimestamp (null there too)
    expect(dep.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kubectl-create', operation: 'Update' })]);
    expect(dep.metadata.managedFields[0].fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:progressDeadlineSeconds': {}, 'f:replicas': {}, 'f:revisionHistoryLimit': {}, 'f:selector': {},
        'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
        'f:template': {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:containers': { 'k:{"name":"nginx"}': nginx },
            'f:dnsPolicy': {}, 'f:restartPolicy': {}, 'f:schedulerName': {}, 'f:securityContext': {}, 'f:terminationGracePeriodSeconds': {},
          },
        },
      },
    });
  });

  it('refuses fields the schema does not declare, as structured-merge-diff words it, whatever --validate says', async () => {
    const manifest = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ssa-typo}\nspec:\n  selector: {matchLabels: {app: t}}\n  replica: 2\n'
      + '  template:\n    metadata: {labels: {app: t}}\n    spec: {containers: [{name: c, image: nginx, imagePolicy: Always}]}\n';
    for (const validate of ['--validate=strict', '--validate=false']) {
      const r = await s.kubectlWithInput(manifest, 'apply', '--server-side', validate, '-f', '-');
      expect(r.stderr).toBe('Error from server (BadRequest): failed to create typed patch object (default/ssa-typo; apps/v1, Kind=Deployment): errors:\n'
        + '  .spec.replica: field not declared in schema\n  .spec.template.spec.containers[name="c"].imagePolicy: field not declared in schema\n');
    }
    expect((await s.kubectl('get', 'deployment', 'ssa-typo')).code).not.toBe(0);
  });

  it('refuses an applied configuration whose keyed list repeats a key (a port\'s protocol at its default), as structured-merge-diff', async () => {
    const manifest = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ssa-dup}\nspec:\n  selector: {matchLabels: {app: t}}\n'
      + '  template:\n    metadata: {labels: {app: t}}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n'
      + '        env: [{name: X, value: "1"}, {name: X, value: "2"}]\n        ports: [{containerPort: 80}, {containerPort: 80, protocol: TCP}]\n';
    const r = await s.kubectlWithInput(manifest, 'apply', '--server-side', '-f', '-');
    expect(r.stderr).toBe('Error from server (BadRequest): failed to create typed patch object (default/ssa-dup; apps/v1, Kind=Deployment): errors:\n'
      + '  .spec.template.spec.containers[name="c"].env: duplicate entries for key [name="X"]\n'
      + '  .spec.template.spec.containers[name="c"].ports: duplicate entries for key [containerPort=80,protocol="TCP"]\n');
    expect((await s.kubectl('get', 'deployment', 'ssa-dup')).code).not.toBe(0);
  });
});
