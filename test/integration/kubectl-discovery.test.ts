// The real kubectl reading what the server says about itself: api-resources, api-versions and
// explain (OpenAPI v3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

describe('kubectl api-resources and api-versions', () => {
  it('lists resources with their short names, group version, scope and kind', async () => {
    const out = await ok(s.kubectl('api-resources'));
    const lines = out.trim().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    const byName = new Map(lines.slice(1).map((l) => { const f = l.split(/\s+/); return [`${f[0]} ${f.length === 5 ? f[2] : f[1]}`, f]; }));
    expect(byName.get('pods v1')).toEqual(['pods', 'po', 'v1', 'true', 'Pod']);
    expect(byName.get('deployments apps/v1')).toEqual(['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
    expect(byName.get('services v1')).toEqual(['services', 'svc', 'v1', 'true', 'Service']);
    expect(byName.get('namespaces v1')).toEqual(['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    expect(byName.get('configmaps v1')).toEqual(['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
    expect(byName.get('secrets v1')).toEqual(['secrets', 'v1', 'true', 'Secret']);
    expect(byName.get('replicasets apps/v1')).toEqual(['replicasets', 'rs', 'apps/v1', 'true', 'ReplicaSet']);
    expect(byName.get('events v1')).toEqual(['events', 'ev', 'v1', 'true', 'Event']);
    expect(byName.get('jobs batch/v1')).toEqual(['jobs', 'batch/v1', 'true', 'Job']);
  });

  it('filters api-resources by group and prints names', async () => {
    const apps = await ok(s.kubectl('api-resources', '--api-group=apps', '-o', 'name'));
    expect(apps.trim().split('\n')).toEqual(['controllerrevisions.apps', 'daemonsets.apps', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps']);
    const namespaced = await ok(s.kubectl('api-resources', '--namespaced=false', '--api-group=', '-o', 'name'));
    expect(namespaced.trim().split('\n')).toEqual(expect.arrayContaining(['namespaces', 'nodes', 'persistentvolumes']));
  });

  it('lists api versions', async () => {
    const out = (await ok(s.kubectl('api-versions'))).trim().split('\n');
    expect(out).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'batch/v1', 'rbac.authorization.k8s.io/v1', 'coordination.k8s.io/v1']));
    expect([...out].sort()).toEqual(out);
  });

  it('resolves short names', async () => {
    const po = await s.kubectl('get', 'po');
    expect(po).toEqual({ code: 0, stdout: '', stderr: 'No resources found in default namespace.\n' });
    expect(await ok(s.kubectl('get', 'deploy,svc', '-o', 'name'))).toBe('service/kubernetes\n');
  });
});

describe('kubectl explain', () => {
  it('explains pods.spec.containers', async () => {
    const out = await ok(s.kubectl('explain', 'pods.spec.containers'));
    expect(out).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: containers <\[\]Container>\n/);
    expect(out).toMatch(/^DESCRIPTION:$/m);
    expect(out).toMatch(/^FIELDS:$/m);
    expect(out).toMatch(/^ {2}image\t<string>$/m);
    expect(out).toMatch(/^ {2}name\t<string> -required-$/m);
    expect(out).toMatch(/^ {2}ports\t<\[\]ContainerPort>$/m);
    expect(out).toMatch(/^ {2}imagePullPolicy\t<string>\n {2}enum: Always, IfNotPresent, Never$/m);
  });

  it('explains deployment.spec.strategy', async () => {
    const out = await ok(s.kubectl('explain', 'deployment.spec.strategy'));
    expect(out).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: strategy <DeploymentStrategy>\n/);
    expect(out).toMatch(/^ {2}rollingUpdate\t<RollingUpdateDeployment>$/m);
    expect(out).toMatch(/^ {2}type\t<string>\n {2}enum: Recreate, RollingUpdate$/m);
  });

  it('explains a whole kind and a recursive tree', async () => {
    const out = await ok(s.kubectl('explain', 'service'));
    expect(out).toMatch(/^KIND:\s+Service\nVERSION:\s+v1\n/);
    expect(out).toMatch(/^ {2}spec\t<ServiceSpec>$/m);
    const tree = await ok(s.kubectl('explain', 'deployment.spec.strategy', '--recursive'));
    expect(tree).toMatch(/^ {2}rollingUpdate\t<RollingUpdateDeployment>\n {4}maxSurge\t<IntOrString>\n {4}maxUnavailable\t<IntOrString>$/m);
  });

  it('says so for a field that does not exist', async () => {
    const r = await s.kubectl('explain', 'pods.spec.nope');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: field "nope" does not exist\n');
  });
});
