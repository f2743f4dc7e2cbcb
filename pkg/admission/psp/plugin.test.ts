import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { isStatusError } from '../../apimachinery/errors.js';
import { attrs, memoryDeps } from '../testing.js';
import { PodSecurityPolicy, type PolicyAuthorizer } from './plugin.js';
import { newProvider } from './provider.js';

const psp = (name: string, spec: Record<string, any> = {}): KubeObject => ({
  metadata: { name },
  spec: {
    seLinux: { rule: 'RunAsAny' }, runAsUser: { rule: 'RunAsAny' }, fsGroup: { rule: 'RunAsAny' }, supplementalGroups: { rule: 'RunAsAny' },
    volumes: ['*'], allowPrivilegeEscalation: true, ...spec,
  },
});
const pod = (spec: Record<string, any> = {}, container: Record<string, any> = {}): KubeObject => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'nginx', ...container }], securityContext: {}, ...spec },
});
const errorsOf = (policy: KubeObject, p: KubeObject): string[] => {
  const provider = newProvider(policy);
  provider.mutatePod(p);
  return provider.validatePod(p).map((c) => `${c.field}: ${c.message}`);
};

describe('PodSecurityPolicy provider', () => {
  it('refuses privileged containers, host namespaces and host ports outside the ranges', () => {
    const p = pod({ hostNetwork: true, hostPID: true, hostIPC: true }, { securityContext: { privileged: true }, ports: [{ containerPort: 80, hostPort: 80 }] });
    expect(errorsOf(psp('x', { hostPorts: [{ min: 8000, max: 8080 }, { min: 9000, max: 9000 }] }), p)).toEqual([
      'spec.securityContext.hostNetwork: Invalid value: true: Host network is not allowed to be used',
      'spec.securityContext.hostPID: Invalid value: true: Host PID is not allowed to be used',
      'spec.securityContext.hostIPC: Invalid value: true: Host IPC is not allowed to be used',
      'spec.containers[0].securityContext.privileged: Invalid value: true: Privileged containers are not allowed',
      'spec.containers[0].hostPort: Invalid value: 80: Host port 80 is not allowed to be used. Allowed ports: [8000-8080,9000]',
    ]);
    expect(errorsOf(psp('x', { privileged: true, hostNetwork: true, hostPID: true, hostIPC: true, hostPorts: [{ min: 1, max: 100 }] }), p)).toEqual([]);
  });

  it('allows only the listed volume types and host paths under allowedHostPaths', () => {
    const p = pod({ volumes: [{ name: 'h', hostPath: { path: '/var/log/app' } }, { name: 'e', emptyDir: {} }, { name: 'f', cephfs: { monitors: ['m'] } }] },
      { volumeMounts: [{ name: 'h', mountPath: '/logs' }] });
    expect(errorsOf(psp('x', { volumes: ['hostPath', 'emptyDir'], allowedHostPaths: [{ pathPrefix: '/var/log', readOnly: true }] }), structuredClone(p))).toEqual([
      'spec.containers[0].volumeMounts[0].readOnly: Invalid value: false: must be read-only',
      'spec.volumes[2]: Invalid value: "cephFS": cephFS volumes are not allowed to be used',
    ]);
    expect(errorsOf(psp('x', { volumes: ['*'], allowedHostPaths: [{ pathPrefix: '/var/lo' }] }), structuredClone(p))).toEqual([
      'spec.volumes[0].hostPath.pathPrefix: Invalid value: "/var/log/app": is not allowed to be used',
    ]);
  });

  it('applies runAsUser, fsGroup and supplementalGroups defaults and checks explicit values against the ranges', () => {
    const policy = psp('x', {
      runAsUser: { rule: 'MustRunAs', ranges: [{ min: 1000, max: 2000 }] },
      runAsGroup: { rule: 'MustRunAs', ranges: [{ min: 3000, max: 3000 }] },
      fsGroup: { rule: 'MustRunAs', ranges: [{ min: 5000, max: 6000 }] },
      supplementalGroups: { rule: 'MustRunAs', ranges: [{ min: 7000, max: 7000 }] },
    });
    const p = pod();
    expect(errorsOf(policy, p)).toEqual([]);
    expect(p.spec!.securityContext).toEqual({ fsGroup: 5000, supplementalGroups: [7000] });
    expect(p.spec!.containers[0].securityContext).toEqual({ runAsUser: 1000, runAsGroup: 3000 });
    expect(errorsOf(policy, pod({ securityContext: { runAsUser: 0, fsGroup: 1 } }))).toEqual([
      'spec.securityContext.fsGroup: Invalid value: []int64{1}: group 1 must be in the ranges: [{5000 6000}]',
      'spec.containers[0].securityContext.runAsUser: Invalid value: 0: must be in the ranges: [{1000 2000}]',
    ]);
    expect(errorsOf(psp('x', { runAsUser: { rule: 'MustRunAsNonRoot' } }), pod({}, { securityContext: { runAsUser: 0 } }))).toEqual([
      'spec.containers[0].securityContext.runAsUser: Invalid value: 0: running with the root UID is forbidden',
    ]);
    const nonRoot = pod();
    expect(errorsOf(psp('x', { runAsUser: { rule: 'MustRunAsNonRoot' } }), nonRoot)).toEqual([]);
    expect(nonRoot.spec!.containers[0].securityContext).toEqual({ runAsNonRoot: true });
  });

  it('adds default capabilities, requires the drops and refuses adds it does not allow', () => {
    const policy = psp('x', { defaultAddCapabilities: ['CHOWN'], requiredDropCapabilities: ['NET_RAW'], allowedCapabilities: ['SYS_TIME'] });
    const p = pod();
    expect(errorsOf(policy, p)).toEqual([]);
    expect(p.spec!.containers[0].securityContext.capabilities).toEqual({ add: ['CHOWN'], drop: ['NET_RAW'] });
    expect(errorsOf(policy, pod({}, { securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }))).toEqual([
      'spec.containers[0].securityContext.capabilities.add: Invalid value: "SYS_ADMIN": capability may not be added',
    ]);
  });

  it('defaults readOnlyRootFilesystem and allowPrivilegeEscalation and refuses explicit violations', () => {
    const policy = psp('x', { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const p = pod();
    expect(errorsOf(policy, p)).toEqual([]);
    expect(p.spec!.containers[0].securityContext).toEqual({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(errorsOf(policy, pod({}, { securityContext: { readOnlyRootFilesystem: false, allowPrivilegeEscalation: true } }))).toEqual([
      'spec.containers[0].securityContext.readOnlyRootFilesystem: Invalid value: false: ReadOnlyRootFilesystem must be set to true',
      'spec.containers[0].securityContext.allowPrivilegeEscalation: Invalid value: true: Allowing privilege escalation for containers is not allowed',
    ]);
  });

  const annotated = (annotations: Record<string, string>): KubeObject => ({ ...psp('x'), metadata: { name: 'x', annotations } });
  const SECCOMP = 'seccomp.security.alpha.kubernetes.io';
  const APPARMOR = 'apparmor.security.beta.kubernetes.io';

  it('seccomp: gives a pod without a profile the default (annotation and field) and checks the fields and annotations against the allowed list', () => {
    const policy = annotated({ [`${SECCOMP}/defaultProfileName`]: 'runtime/default', [`${SECCOMP}/allowedProfileNames`]: 'runtime/default,localhost/good' });
    const plain = pod();
    expect(errorsOf(policy, plain)).toEqual([]);
    expect(plain.metadata!.annotations).toEqual({ [`${SECCOMP}/pod`]: 'runtime/default' });
    expect(plain.spec!.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(errorsOf(policy, pod({}, { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'good' } } }))).toEqual([]);
    expect(errorsOf(policy, pod({}, { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'bad' } } }))).toEqual([
      'pod.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: Forbidden: localhost/bad is not an allowed seccomp profile. Valid values are runtime/default,localhost/good',
    ]);
    // The pod's field is the pod's profile and, with no profile of its own, the container's.
    expect(errorsOf(policy, pod({ securityContext: { seccompProfile: { type: 'Unconfined' } } }))).toEqual([
      'pod.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: Forbidden: unconfined is not an allowed seccomp profile. Valid values are runtime/default,localhost/good',
      'pod.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: Forbidden: unconfined is not an allowed seccomp profile. Valid values are runtime/default,localhost/good',
    ]);
    const byAnnotation = pod();
    byAnnotation.metadata!.annotations = { [`container.${SECCOMP}/c`]: 'docker/default' };
    expect(errorsOf(policy, byAnnotation)).toEqual([
      'pod.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: Forbidden: docker/default is not an allowed seccomp profile. Valid values are runtime/default,localhost/good',
    ]);
  });

  it('seccomp: a policy without an allowed list refuses any profile, "*" allows every one', () => {
    const withProfile = () => pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } });
    expect(errorsOf(psp('x'), withProfile())).toEqual([
      'pod.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: Forbidden: seccomp may not be set',
      'pod.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: Forbidden: seccomp may not be set',
    ]);
    expect(errorsOf(psp('x'), pod())).toEqual([]);
    expect(errorsOf(annotated({ [`${SECCOMP}/allowedProfileNames`]: '*' }), withProfile())).toEqual([]);
  });

  it('AppArmor: gives each container without a profile the default and checks every container against the allowed list', () => {
    const policy = annotated({ [`${APPARMOR}/defaultProfileName`]: 'runtime/default', [`${APPARMOR}/allowedProfileNames`]: 'runtime/default' });
    const plain = pod({ initContainers: [{ name: 'init', image: 'busybox' }] });
    expect(errorsOf(policy, plain)).toEqual([]);
    expect(plain.metadata!.annotations).toEqual({ [`container.${APPARMOR}/init`]: 'runtime/default', [`container.${APPARMOR}/c`]: 'runtime/default' });
    const own = pod();
    own.metadata!.annotations = { [`container.${APPARMOR}/c`]: 'localhost/mine' };
    expect(errorsOf(policy, own)).toEqual([
      'pod.metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: Forbidden: localhost/mine is not an allowed profile. Allowed values: "runtime/default"',
    ]);
    expect(errorsOf(annotated({ [`${APPARMOR}/allowedProfileNames`]: 'runtime/default' }), pod())).toEqual([
      'pod.metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: Forbidden: AppArmor profile must be set',
    ]);
    // Without an allowed list, anything goes.
    expect(errorsOf(psp('x'), own)).toEqual([]);
  });

  it('cannot be built from a MustRunAs without ranges', () => {
    expect(() => newProvider(psp('x', { runAsUser: { rule: 'MustRunAs' } }))).toThrow('MustRunAs requires at least one range');
  });
});

describe('PodSecurityPolicy plugin', () => {
  const plugin = (policies: KubeObject[], allowed: Record<string, string[]>) => {
    const authorize: PolicyAuthorizer = async (user, _ns, name) => (allowed[user?.name ?? ''] ?? []).includes(name);
    return new PodSecurityPolicy(memoryDeps(policies.map((obj) => ({ group: 'policy', plural: 'podsecuritypolicies', obj }))), authorize);
  };
  const alice = { name: 'alice', groups: [] };
  const restricted = psp('a-restricted', { runAsUser: { rule: 'MustRunAs', ranges: [{ min: 1000, max: 1000 }] } });
  const open = psp('z-open', { privileged: true });

  it('refuses every pod when there is no policy', async () => {
    const err = await plugin([], {}).admit(attrs('pods', 'CREATE', pod(), { user: alice })).catch((e: unknown) => e);
    expect(isStatusError(err) && err.message).toBe('pods "p" is forbidden: PodSecurityPolicy: no providers available to validate pod request');
  });

  it('prefers a policy that needs no change, else the first by name, and records it', async () => {
    const p = pod();
    const pl = plugin([open, restricted], { alice: ['a-restricted', 'z-open'] });
    await pl.admit(attrs('pods', 'CREATE', p, { user: alice }));
    expect(p.metadata!.annotations).toEqual({ 'kubernetes.io/psp': 'z-open' });
    expect(p.spec!.containers[0].securityContext).toBeUndefined();

    const q = pod();
    await plugin([open, restricted], { alice: ['a-restricted'] }).admit(attrs('pods', 'CREATE', q, { user: alice }));
    expect(q.metadata!.annotations).toEqual({ 'kubernetes.io/psp': 'a-restricted' });
    expect(q.spec!.containers[0].securityContext).toEqual({ runAsUser: 1000 });
    await plugin([open, restricted], { alice: ['a-restricted'] }).validate(attrs('pods', 'CREATE', q, { user: alice }));
  });

  it('lets the service account grant the policy and lists only the errors of usable policies', async () => {
    const p = pod({ serviceAccountName: 'builder' }, { securityContext: { privileged: true } });
    const pl = plugin([restricted, open], { 'system:serviceaccount:ns:builder': ['z-open'] });
    await pl.admit(attrs('pods', 'CREATE', structuredClone(p), { user: alice }));
    const err = await plugin([restricted, open], { alice: ['a-restricted'] }).admit(attrs('pods', 'CREATE', p, { user: alice })).catch((e: unknown) => e);
    expect(isStatusError(err) && err.message).toBe('pods "p" is forbidden: PodSecurityPolicy: unable to admit pod: [spec.containers[0].securityContext.privileged: Invalid value: true: Privileged containers are not allowed]');
  });

  it('refuses an update that a policy would have to change, and ignores garbage-collector writes', async () => {
    const pl = plugin([restricted], { alice: ['a-restricted'] });
    const old = pod({}, { securityContext: { runAsUser: 1000 } });
    const bad = pod({}, { securityContext: { runAsUser: 1000 } });
    bad.spec!.containers[0].securityContext = undefined;
    const err = await pl.validate(attrs('pods', 'UPDATE', bad, { user: alice, oldObject: old })).catch((e: unknown) => e);
    expect(isStatusError(err) && err.message).toBe('pods "p" is forbidden: PodSecurityPolicy: unable to validate pod: []');
    const gc = { ...structuredClone(bad), metadata: { ...bad.metadata, finalizers: ['x'] } };
    await pl.validate(attrs('pods', 'UPDATE', gc, { user: alice, oldObject: bad }));
  });
});
