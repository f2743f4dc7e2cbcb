import { describe, expect, it } from 'vitest';
import { attrs, memoryDeps } from '../testing.js';
import { evaluatePod, forbiddenReason } from './checks.js';
import { PodSecurity } from './plugin.js';

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
      .toThrow('Namespace "x" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });
});
