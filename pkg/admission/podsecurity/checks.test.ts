import { describe, expect, it } from 'vitest';
import { attrs, memoryDeps } from '../testing.js';
import { evaluatePod, forbiddenReason } from './checks.js';
import { PodSecurity, policyOf } from './plugin.js';

describe('Pod Security Standards', () => {
  it('words the restricted violations of a privileged pod as upstream', () => {
    const spec = { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] };
    expect(evaluatePod('baseline', {}, spec).map((r) => r.reason)).toEqual(['privileged']);
    expect(forbiddenReason(evaluatePod('restricted', {}, spec))).toBe(
      'privileged (container "c" must not set securityContext.privileged=true), '
      + 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), '
      + 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), '
      + 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), '
      + 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('passes a pod that follows restricted', () => {
    const spec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } }],
      volumes: [{ name: 'v', emptyDir: {} }],
    };
    expect(evaluatePod('restricted', {}, spec)).toEqual([]);
  });

  it('checks host namespaces, ports and volumes', () => {
    const spec = {
      hostNetwork: true, hostPID: true,
      containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 80 }] }, { name: 'b', ports: [{ containerPort: 1, hostPort: 443 }] }],
      volumes: [{ name: 'h', hostPath: { path: '/' } }],
    };
    expect(forbiddenReason(evaluatePod('baseline', {}, spec))).toBe(
      'host namespaces (hostNetwork=true, hostPID=true), hostPath volumes (volume "h"), hostPort (containers "a", "b" use hostPorts 443, 80)',
    );
    expect(evaluatePod('restricted', {}, spec).find((r) => r.reason === 'restricted volume types')?.detail).toBe('volume "h" uses restricted volume type "hostPath"');
  });

  it('enforces, warns on workloads, honours exemptions and checks label values', () => {
    const deps = memoryDeps([{ plural: 'namespaces', obj: { metadata: { name: 'ns', labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' } } } }]);
    const ps = new PodSecurity(deps);
    const privileged = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', securityContext: { privileged: true } }] } };
    expect(() => ps.validate(attrs('pods', 'CREATE', privileged))).toThrow('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    const plain = attrs('pods', 'CREATE', { metadata: { name: 'q' }, spec: { containers: [{ name: 'c' }] } });
    ps.validate(plain);
    expect(plain.warnings![0]).toMatch(/^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
    const deploy = attrs('deployments', 'CREATE', { metadata: { name: 'd' }, spec: { template: privileged } }, { group: 'apps' });
    ps.validate(deploy);
    expect(deploy.warnings![0]).toMatch(/^would violate PodSecurity "restricted:latest": privileged \(container "c"/);
    expect(() => new PodSecurity(deps, { exemptions: { usernames: ['admin'] } }).validate(attrs('pods', 'CREATE', privileged, { user: { name: 'admin', groups: [] } }))).not.toThrow();
    expect(() => ps.validate(attrs('namespaces', 'CREATE', { metadata: { name: 'x', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } })))
      .toThrow('metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });

  it("re-checks a workload on every update (only a pod's update is weighed), and words label errors as upstream", () => {
    const deps = memoryDeps([{ plural: 'namespaces', obj: { metadata: { name: 'ns', labels: { 'pod-security.kubernetes.io/warn': 'restricted' } } } }]);
    const ps = new PodSecurity(deps);
    const deploy = { metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    const relabelled = attrs('deployments', 'UPDATE', { ...deploy, metadata: { name: 'd', labels: { foo: 'bar' } } }, { group: 'apps', oldObject: deploy });
    ps.validate(relabelled);
    expect(relabelled.warnings![0]).toMatch(/^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const podRelabelled = attrs('pods', 'UPDATE', { ...pod, metadata: { name: 'p', labels: { foo: 'bar' } } }, { oldObject: pod });
    ps.validate(podRelabelled);
    expect(podRelabelled.warnings ?? []).toEqual([]);

    const bad = { 'pod-security.kubernetes.io/enforce': 'bogus', 'pod-security.kubernetes.io/audit-version': '1.2' };
    let thrown: unknown;
    try {
      ps.validate(attrs('namespaces', 'CREATE', { metadata: { name: 'psv', labels: bad } }));
    } catch (err) { thrown = err; }
    expect(thrown).toMatchObject({
      code: 422, reason: 'Invalid', details: { name: 'psv', kind: 'namespaces' },
      message: '[metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted, '
        + 'metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "1.2": must be "latest" or "v1.x"]',
    });
    // an update that keeps the same invalid labels is not refused for them
    const ns = { metadata: { name: 'psv', labels: bad } };
    expect(() => ps.validate(attrs('namespaces', 'UPDATE', { metadata: { ...ns.metadata, annotations: { a: 'b' } } }, { oldObject: ns, name: 'psv' }))).not.toThrow();
  });

  it('annotates the audit event as upstream: enforce-policy, audit-violations (workloads too), exempt', () => {
    const deps = memoryDeps([{ plural: 'namespaces', obj: { metadata: { name: 'ns', labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/audit': 'restricted' } } } }]);
    const ps = new PodSecurity(deps);
    const withAudit = (plural: string, obj: Record<string, unknown>, extra = {}) => attrs(plural, 'CREATE', obj, { auditAnnotations: {}, ...extra });
    const plain = withAudit('pods', { metadata: { name: 'q' }, spec: { containers: [{ name: 'c' }] } });
    ps.validate(plain);
    expect(plain.auditAnnotations).toEqual({
      'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
      'pod-security.kubernetes.io/audit-violations': expect.stringMatching(/^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/),
    });
    const privileged = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', securityContext: { privileged: true } }] } };
    const refused = withAudit('pods', privileged);
    expect(() => ps.validate(refused)).toThrow(/violates PodSecurity "baseline:latest"/);
    expect(refused.auditAnnotations!['pod-security.kubernetes.io/audit-violations']).toMatch(/^would violate PodSecurity "restricted:latest": privileged/);
    const deploy = withAudit('deployments', { metadata: { name: 'd' }, spec: { template: privileged } }, { group: 'apps' });
    ps.validate(deploy);
    expect(Object.keys(deploy.auditAnnotations!)).toEqual(['pod-security.kubernetes.io/audit-violations']);
    const exempt = withAudit('pods', privileged, { user: { name: 'admin', groups: [] } });
    new PodSecurity(deps, { exemptions: { usernames: ['admin'] } }).validate(exempt);
    expect(exempt.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/exempt': 'user' });
  });

  it('applies the checks of the pinned version: later checks are absent, changed ones answer as they did then', () => {
    const restrictedButRoot = {
      securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'net.ipv4.tcp_keepalive_time' }] },
      containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seLinuxOptions: { type: 'container_engine_t' } } }],
    };
    const reasons = (version: string): string[] => evaluatePod('restricted', {}, restrictedButRoot, version).map((r) => r.reason);
    expect(reasons('latest')).toEqual(['runAsUser=0']);
    expect(reasons('v1.31')).toEqual(['runAsUser=0']);
    expect(reasons('v1.29')).toEqual(['seLinuxOptions', 'runAsUser=0']);
    expect(reasons('v1.23')).toEqual(['seLinuxOptions', 'forbidden sysctls', 'runAsUser=0']);
    expect(reasons('v1.22')).toEqual(['seLinuxOptions', 'forbidden sysctls']);
    // Before 1.22 restricted has no capabilities check of its own: baseline's applies, so NET_RAW is refused, not drop=ALL.
    const addsNetRaw = { containers: [{ name: 'c', securityContext: { capabilities: { add: ['NET_RAW', 'NET_BIND_SERVICE'] } } }] };
    expect(evaluatePod('restricted', {}, addsNetRaw, 'v1.21').find((r) => r.reason === 'non-default capabilities')?.detail).toBe('container "c" must not include "NET_RAW" in securityContext.capabilities.add');
    expect(evaluatePod('restricted', {}, addsNetRaw, 'v1.21').some((r) => r.reason === 'unrestricted capabilities')).toBe(false);
    expect(evaluatePod('restricted', {}, addsNetRaw, 'v1.7').map((r) => r.reason)).toEqual(['non-default capabilities', 'runAsNonRoot != true']);
    // Windows pods are exempt from the Linux-only restricted checks from 1.25 on.
    const windows = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'c' }] };
    expect(evaluatePod('restricted', {}, windows, 'v1.25')).toEqual([]);
    expect(evaluatePod('restricted', {}, windows, 'v1.24').map((r) => r.reason)).toEqual(['allowPrivilegeEscalation != false', 'unrestricted capabilities', 'seccompProfile']);
  });

  it('takes an invalid version label as latest, and a newer one than it knows as latest', () => {
    const latest = { level: 'privileged' as const, version: 'latest' };
    const p = policyOf({ 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v2.0', 'pod-security.kubernetes.io/warn-version': 'v1.24' }, { enforce: latest, audit: latest, warn: latest });
    expect(p.enforce).toEqual({ level: 'restricted', version: 'latest' });
    expect(p.warn).toEqual({ level: 'privileged', version: 'v1.24' });
    const spec = { securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] };
    expect(evaluatePod('restricted', {}, spec, 'v1.99')).toEqual(evaluatePod('restricted', {}, spec, 'latest'));
  });
});
