// PodSecurityPolicy with the real kubectl: the policy/v1beta1 kind served and printed, its spec validated, and
// the admission plugin (enabled by flag) refusing pods without a usable policy, refusing what a granted policy
// forbids, and admitting plain pods with the policy's defaults and the kubernetes.io/psp annotation; the seccomp and
// AppArmor profile annotations of a policy.
import { execFile, execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok, succeeded } from '../support/kubectl-run.js';
import { certificateUser, type TestUser } from './authz-support.js';

const hasPythonClient = (() => {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import kubernetes'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
// Debian's python3-kubernetes (22.x) still has the policy/v1beta1 models, which insist on the required strategies.
const PYTHON = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
api = client.PolicyV1beta1Api()
api.create_pod_security_policy(client.V1beta1PodSecurityPolicy(metadata=client.V1ObjectMeta(name='from-python'),
  spec=client.V1beta1PodSecurityPolicySpec(privileged=True, volumes=['*'], run_as_user=client.V1beta1RunAsUserStrategyOptions(rule='RunAsAny'),
    se_linux=client.V1beta1SELinuxStrategyOptions(rule='RunAsAny'), fs_group=client.V1beta1FSGroupStrategyOptions(rule='RunAsAny'),
    supplemental_groups=client.V1beta1SupplementalGroupsStrategyOptions(rule='RunAsAny'))))
p = api.read_pod_security_policy('from-python')
print(json.dumps({'names': sorted(x.metadata.name for x in api.list_pod_security_policy().items), 'escalation': p.spec.allow_privilege_escalation, 'rule': p.spec.run_as_user.rule}))
`;

let s: TestApiServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', enableAdmissionPlugins: ['PodSecurityPolicy'] });
  [alice, bob] = await Promise.all([certificateUser(s, 'alice', []), certificateUser(s, 'bob', [])]);
});
afterAll(async () => {
  await Promise.all([alice?.close(), bob?.close()]);
  await s?.close();
});

const podYaml = (name: string, securityContext = '{}', extra = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    securityContext: ${securityContext}\n${extra}`;
const RESTRICTED = `apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata:
  name: restricted
spec:
  privileged: false
  allowPrivilegeEscalation: false
  requiredDropCapabilities: [NET_RAW]
  volumes: [configMap, emptyDir, projected, secret, downwardAPI]
  runAsUser: {rule: MustRunAs, ranges: [{min: 1000, max: 2000}]}
  fsGroup: {rule: MustRunAs, ranges: [{min: 3000, max: 3000}]}
  supplementalGroups: {rule: RunAsAny}
  seLinux: {rule: RunAsAny}
`;
const PROFILED = `apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata:
  name: profiled
  annotations:
    seccomp.security.alpha.kubernetes.io/defaultProfileName: runtime/default
    seccomp.security.alpha.kubernetes.io/allowedProfileNames: runtime/default,localhost/audit.json
    apparmor.security.beta.kubernetes.io/defaultProfileName: runtime/default
    apparmor.security.beta.kubernetes.io/allowedProfileNames: runtime/default
spec:
  volumes: ['*']
  runAsUser: {rule: RunAsAny}
  fsGroup: {rule: RunAsAny}
  supplementalGroups: {rule: RunAsAny}
  seLinux: {rule: RunAsAny}
`;

describe('PodSecurityPolicy', () => {
  it('refuses every pod while no policy exists', async () => {
    const r = await s.kubectlWithInput(podYaml('early'), 'create', '-f', '-');
    expect(r.stderr).toContain('pods "early" is forbidden: PodSecurityPolicy: no providers available to validate pod request');
  });

  it('serves policies with their printer columns and validates their spec', async () => {
    await ok(s.kubectlWithInput(RESTRICTED, 'apply', '-f', '-'));
    const table = await ok(s.kubectl('get', 'psp'));
    expect(table.split('\n')[0]!.split(/\s+/)).toEqual(['NAME', 'PRIV', 'CAPS', 'SELINUX', 'RUNASUSER', 'FSGROUP', 'SUPGROUP', 'READONLYROOTFS', 'VOLUMES']);
    expect(table.split('\n')[1]!.split(/\s+/)).toEqual(['restricted', 'false', 'RunAsAny', 'MustRunAs', 'MustRunAs', 'RunAsAny', 'false', 'configMap,emptyDir,projected,secret,downwardAPI']);
    const bad = await s.kubectlWithInput(RESTRICTED.replace('name: restricted', 'name: bad').replace('{rule: RunAsAny}\n', '{rule: Sometimes}\n'), 'create', '-f', '-');
    expect(bad.stderr).toContain('PodSecurityPolicy "bad" is invalid: spec.supplementalGroups.rule: Unsupported value: "Sometimes": supported values: "MayRunAs", "MustRunAs", "RunAsAny"');
  });

  it('grants a policy with the use verb: a privileged pod is refused, a plain one gets the defaults', async () => {
    await ok(s.kubectl('create', 'namespace', 'team'));
    await ok(s.kubectl('create', 'rolebinding', 'edit', '--clusterrole=edit', '--user=alice', '--user=bob', '-n', 'team'));
    await ok(s.kubectl('create', 'clusterrole', 'psp-restricted', '--verb=use', '--resource=podsecuritypolicies.policy', '--resource-name=restricted'));
    await ok(s.kubectl('create', 'rolebinding', 'alice-psp', '--clusterrole=psp-restricted', '--user=alice', '-n', 'team'));
    // kubectl warns that the resource is cluster-scoped: the grant is per namespace all the same, as upstream checks it.
    expect((await alice.kubectl('auth', 'can-i', 'use', 'podsecuritypolicies.policy/restricted', '-n', 'team')).stdout).toBe('yes\n');
    expect((await alice.kubectl('auth', 'can-i', 'use', 'podsecuritypolicies.policy/restricted', '-n', 'default')).stdout).toBe('no\n');

    const priv = await alice.kubectl('run', 'priv', '--image=nginx', '-n', 'team', '--overrides={"spec":{"containers":[{"name":"priv","image":"nginx","securityContext":{"privileged":true}}]}}');
    expect(priv.stderr).toContain('pods "priv" is forbidden: PodSecurityPolicy: unable to admit pod: [spec.containers[0].securityContext.privileged: Invalid value: true: Privileged containers are not allowed]');
    const hostPath = await kubectl(alice.kubeconfig, ['create', '-f', '-', '-n', 'team'], podYaml('hp', '{}', '  volumes:\n  - name: h\n    hostPath: {path: /etc}\n'));
    expect(hostPath.stderr).toContain('spec.volumes[0]: Invalid value: "hostPath": hostPath volumes are not allowed to be used');

    await ok(alice.kubectl('run', 'plain', '--image=nginx', '-n', 'team'));
    const pod = JSON.parse(await ok(s.kubectl('get', 'pod', 'plain', '-n', 'team', '-o', 'json')));
    expect(pod.metadata.annotations['kubernetes.io/psp']).toBe('restricted');
    expect(pod.spec.securityContext.fsGroup).toBe(3000);
    expect(pod.spec.containers[0].securityContext).toEqual({ runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } });
    // An explicit user outside the ranges is refused rather than changed.
    const root = await kubectl(alice.kubeconfig, ['create', '-f', '-', '-n', 'team'], podYaml('root', '{runAsUser: 0}'));
    expect(root.stderr).toContain('spec.containers[0].securityContext.runAsUser: Invalid value: 0: must be in the ranges: [{1000 2000}]');
  });

  it('refuses a user without use (nothing grants it by default) unless the pod\'s service account may use a policy', async () => {
    const r = await bob.kubectl('run', 'bobs', '--image=nginx', '-n', 'team');
    expect(r.stderr).toContain('pods "bobs" is forbidden: PodSecurityPolicy: unable to admit pod: []');
    await ok(s.kubectl('create', 'serviceaccount', 'builder', '-n', 'team'));
    await ok(s.kubectl('create', 'rolebinding', 'builder-psp', '--clusterrole=psp-restricted', '--serviceaccount=team:builder', '-n', 'team'));
    await ok(bob.kubectl('run', 'bobs', '--image=nginx', '-n', 'team', '--overrides={"spec":{"serviceAccountName":"builder"}}'));
    const pod = JSON.parse(await ok(s.kubectl('get', 'pod', 'bobs', '-n', 'team', '-o', 'json')));
    expect(pod.metadata.annotations['kubernetes.io/psp']).toBe('restricted');
  });

  it('applies a policy\'s seccomp and AppArmor profile annotations, to the pod\'s annotations and its seccompProfile fields', async () => {
    await ok(s.kubectlWithInput(PROFILED, 'apply', '-f', '-'));
    await ok(s.kubectl('create', 'namespace', 'profiles'));
    await ok(s.kubectl('create', 'rolebinding', 'edit', '--clusterrole=edit', '--user=alice', '-n', 'profiles'));
    await ok(s.kubectl('create', 'clusterrole', 'psp-profiled', '--verb=use', '--resource=podsecuritypolicies.policy', '--resource-name=profiled'));
    await ok(s.kubectl('create', 'rolebinding', 'alice-profiled', '--clusterrole=psp-profiled', '--user=alice', '-n', 'profiles'));

    // the policy's AppArmor annotation is then copied to the container's field, and warned of, as any pod's
    const plain = await alice.kubectl('run', 'plain', '--image=nginx', '-n', 'profiles');
    expect([plain.code, plain.stderr]).toEqual([0, 'Warning: metadata.annotations[container.apparmor.security.beta.kubernetes.io/plain]: deprecated since v1.30; use the "appArmorProfile" field instead\n']);
    const pod = JSON.parse(await ok(s.kubectl('get', 'pod', 'plain', '-n', 'profiles', '-o', 'json')));
    expect(pod.metadata.annotations).toMatchObject({
      'kubernetes.io/psp': 'profiled', 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default', 'container.apparmor.security.beta.kubernetes.io/plain': 'runtime/default',
    });
    expect(pod.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(pod.spec.containers[0].securityContext.appArmorProfile).toEqual({ type: 'RuntimeDefault' });
    await succeeded(alice.kubectl('run', 'audited', '--image=nginx', '-n', 'profiles', '--overrides={"spec":{"containers":[{"name":"audited","image":"nginx","securityContext":{"seccompProfile":{"type":"Localhost","localhostProfile":"audit.json"}}}]}}'), ['run', 'audited']);

    const loose = await alice.kubectl('run', 'loose', '--image=nginx', '-n', 'profiles', '--overrides={"spec":{"securityContext":{"seccompProfile":{"type":"Unconfined"}}}}');
    expect(loose.stderr).toContain('pods "loose" is forbidden: PodSecurityPolicy: unable to admit pod: [pod.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: Forbidden: unconfined is not an allowed seccomp profile. Valid values are runtime/default,localhost/audit.json');
    const custom = await kubectl(alice.kubeconfig, ['create', '-f', '-', '-n', 'profiles'],
      podYaml('custom').replace('  name: custom\n', '  name: custom\n  annotations: {container.apparmor.security.beta.kubernetes.io/c: localhost/custom}\n'));
    expect(custom.stderr).toContain('pod.metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: Forbidden: localhost/custom is not an allowed profile. Allowed values: "runtime/default"');
  });

  it.skipIf(!hasPythonClient)('is read and written by the Python client\'s policy/v1beta1 models', async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile('/usr/bin/python3', ['-c', PYTHON, s.kubeconfig], { timeout: 60_000 }, (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out)));
    });
    expect(JSON.parse(stdout)).toEqual({ names: ['from-python', 'profiled', 'restricted'], escalation: true, rule: 'RunAsAny' });
  });
});
