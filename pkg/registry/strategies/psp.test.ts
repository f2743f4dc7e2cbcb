import { describe, expect, it } from 'vitest';
import { validatePodSecurityPolicySpec } from './psp.js';

const base = { seLinux: { rule: 'RunAsAny' }, runAsUser: { rule: 'RunAsAny' }, fsGroup: { rule: 'RunAsAny' }, supplementalGroups: { rule: 'RunAsAny' } };
const errors = (spec: Record<string, any>) => validatePodSecurityPolicySpec({ ...base, ...spec }).map((c) => `${c.field}: ${c.message}`);

describe('PodSecurityPolicy spec validation', () => {
  it('accepts a plain policy', () => {
    expect(errors({ volumes: ['*'], allowedHostPaths: [{ pathPrefix: '/var/log', readOnly: true }] })).toEqual([]);
  });

  it('checks rules and ID ranges', () => {
    expect(errors({ runAsUser: { rule: 'MustRunAs', ranges: [{ min: 10, max: 5 }, { min: -1, max: 0 }] }, seLinux: {} })).toEqual([
      'spec.runAsUser.ranges[0].min: Invalid value: 10: min cannot be greater than max',
      'spec.runAsUser.ranges[1].min: Invalid value: -1: min cannot be negative',
      'spec.seLinux.rule: Unsupported value: "": supported values: "MustRunAs", "RunAsAny"',
    ]);
  });

  it('checks volumes, capabilities, privilege escalation and host paths', () => {
    expect(errors({
      volumes: ['hostPath', 'floppy'], requiredDropCapabilities: ['NET_RAW'], allowedCapabilities: ['NET_RAW'],
      defaultAllowPrivilegeEscalation: true, allowPrivilegeEscalation: false, allowedHostPaths: [{ pathPrefix: '/var/../etc' }],
    })).toEqual([
      expect.stringMatching(/^spec\.volumes: Unsupported value: "floppy": supported values: "\*", "awsElasticBlockStore", /),
      'allowedCapabilities: Invalid value: "NET_RAW": capability is listed in allowedCapabilities and requiredDropCapabilities',
      'spec.defaultAllowPrivilegeEscalation: Invalid value: true: Cannot set DefaultAllowPrivilegeEscalation to true without also setting AllowPrivilegeEscalation to true',
      'spec.allowedHostPaths[0]: Invalid value: "/var/../etc": must not contain \'..\'',
    ]);
    expect(errors({ allowedCapabilities: ['*'], requiredDropCapabilities: ['NET_RAW'] })[0]).toBe(
      'requiredDropCapabilities: Invalid value: []string{"NET_RAW"}: must be empty when all capabilities are allowed by a wildcard');
  });

  it('checks sysctl patterns and overlaps between allowed and forbidden ones', () => {
    expect(errors({ allowedUnsafeSysctls: ['kernel.msg*', 'Bad!'], forbiddenSysctls: ['kernel.msgmax', '*', 'net.*'] })).toEqual([
      expect.stringMatching(/^spec\.allowedUnsafeSysctls\[1\]: Invalid value: "Bad!": must have at most 253 characters and match regex /),
      'spec.forbiddenSysctls.items: Forbidden: if \'*\' is present, must not specify other sysctls',
      'spec.forbiddenSysctls[0]: Invalid value: "kernel.msgmax": sysctl overlaps with kernel.msg*',
      'spec.allowedUnsafeSysctls[0]: Invalid value: "kernel.msg*": sysctl overlaps with *',
      'spec.allowedUnsafeSysctls[1]: Invalid value: "Bad!": sysctl overlaps with *',
    ]);
  });
});
