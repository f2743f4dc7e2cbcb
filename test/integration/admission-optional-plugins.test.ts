// Plugins that are off by default, enabled by flag; the AdmissionConfiguration file; the flags'
// checks; and quota consistency under concurrent creates.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiServerFlags, validateApiServerFlags } from '../../cmd/apiserver-flags.js';
import { parseFlags } from '../../cmd/flags.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admission-config-'));
  await writeFile(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: PodSecurity',
    '  configuration:',
    '    apiVersion: pod-security.admission.config.k8s.io/v1',
    '    kind: PodSecurityConfiguration',
    '    defaults: {enforce: baseline, enforce-version: latest, warn: baseline}',
    '    exemptions: {namespaces: [kube-system]}',
  ].join('\n'));
  s = await startTestApiServer({
    storageBackend: 'memory', authorizationModes: ['AlwaysAllow'],
    enableAdmissionPlugins: ['AlwaysPullImages', 'NamespaceAutoProvision'],
    admissionControlConfigFile: join(dir, 'admission.yaml'),
  });
});
afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const privileged = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    securityContext: {privileged: true}\n`;

describe('optional admission plugins and their configuration', () => {
  it('AlwaysPullImages makes every container pull always', async () => {
    await ok('run', 'pull', '--image=nginx:1.27', '--image-pull-policy=IfNotPresent');
    const pod = JSON.parse(await ok('get', 'pod', 'pull', '-o', 'json'));
    expect(pod.spec.containers[0].imagePullPolicy).toBe('Always');
  });

  it('NamespaceAutoProvision creates a missing namespace on create', async () => {
    expect((await s.kubectl('get', 'namespace', 'auto')).code).toBe(1);
    await ok('create', 'configmap', 'cm', '-n', 'auto', '--from-literal=a=b');
    expect(JSON.parse(await ok('get', 'namespace', 'auto', '-o', 'json')).status.phase).toBe('Active');
    // A dry run creates no namespace (so, as upstream, the dry-run create finds none).
    const dry = await s.kubectl('create', 'configmap', 'cm', '-n', 'dry', '--from-literal=a=b', '--dry-run=server');
    expect(dry.stderr).toContain('namespaces "dry" not found');
    expect((await s.kubectl('get', 'namespace', 'dry')).code).toBe(1);
  });

  it('takes PodSecurity defaults and exemptions from --admission-control-config-file', async () => {
    const r = await s.kubectlWithInput(privileged('p'), 'create', '-f', '-');
    expect(r.stderr).toContain('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    const exempt = await s.kubectlWithInput(privileged('p'), 'create', '-f', '-', '-n', 'kube-system');
    expect(exempt.stderr).toBe('');
    expect(exempt.code).toBe(0);
    await ok('create', 'namespace', 'open');
    await ok('label', 'namespace', 'open', 'pod-security.kubernetes.io/enforce=privileged', 'pod-security.kubernetes.io/warn=privileged');
    expect((await s.kubectlWithInput(privileged('p'), 'create', '-f', '-', '-n', 'open')).code).toBe(0);
  });

  it('ResourceQuota admits exactly up to spec.hard under concurrent creates', async () => {
    await ok('create', 'namespace', 'race');
    await ok('create', 'quota', 'q', '--hard=pods=3', '-n', 'race');
    const body = (i: number) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}` }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => s.api('POST', '/api/v1/namespaces/race/pods', body(i))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(7);
    expect(refused[0]!.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, details: { kind: 'pods' } });
    expect(refused[0]!.body.message).toMatch(/^pods "p\d" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3$/);
    expect(JSON.parse(await ok('get', 'quota', 'q', '-n', 'race', '-o', 'json')).status.used).toEqual({ pods: '3' });
  });

  it('refuses unknown plugin names at start-up, as kube-apiserver does', async () => {
    const check = (...argv: string[]) => () => validateApiServerFlags(parseFlags(argv, apiServerFlags).values);
    expect(check('--enable-admission-plugins=NodeRestriction,Bogus')).toThrow('enable-admission-plugins plugin "Bogus" is unknown');
    expect(check('--disable-admission-plugins=Nope')).toThrow('disable-admission-plugins plugin "Nope" is unknown');
    expect(check('--enable-admission-plugins=Priority', '--disable-admission-plugins=Priority')).toThrow('[Priority] in enable-admission-plugins and disable-admission-plugins overlapped');
    expect(check('--enable-admission-plugins=NodeRestriction,AlwaysPullImages', '--disable-admission-plugins=PodSecurity')).not.toThrow();
    await expect(startTestApiServer({ storageBackend: 'memory', enableAdmissionPlugins: ['Bogus'] })).rejects.toThrow('enable-admission-plugins plugin "Bogus" is unknown');
  });
});
