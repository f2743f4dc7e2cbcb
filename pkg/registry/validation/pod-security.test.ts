import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { validatePodSecurityContext, validateWindowsHostProcess } from './pod-security.js';

const messages = (spec: KubeObject): string[] => {
  const causes: StatusCause[] = [];
  validatePodSecurityContext(spec, 'spec', causes);
  return causes.map((c) => `${c.field}: ${c.message}`);
};
const RANGE = 'must be between 0 and 2147483647, inclusive';
const SYSCTL = 'must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';

describe('validatePodSecurityContext', () => {
  it('keeps IDs in range', () => {
    expect(messages({ securityContext: { fsGroup: -1, runAsUser: 2147483648, runAsGroup: 0, supplementalGroups: [1, -2] } })).toEqual([
      `spec.securityContext.fsGroup: Invalid value: -1: ${RANGE}`,
      `spec.securityContext.runAsUser: Invalid value: 2147483648: ${RANGE}`,
      `spec.securityContext.supplementalGroups[1]: Invalid value: -2: ${RANGE}`,
    ]);
  });

  it('refuses a shared process namespace with the host\'s (upstream keeps both in the security context)', () => {
    expect(messages({ shareProcessNamespace: true, hostPID: true })).toEqual(['spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled']);
  });

  it('checks sysctl names, repeats and host namespaces', () => {
    expect(messages({ hostNetwork: true, hostIPC: true, securityContext: { sysctls: [
      { name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'Bad.Name', value: '1' }, { name: 'kernel.shm_rmid_forced', value: '0' },
      { name: 'net/ipv4/ip_forward', value: '1' }, { name: 'fs.mqueue.msg_max', value: '1' }, { value: '1' },
    ] } })).toEqual([
      "spec.securityContext.sysctls[0].name: Invalid value: \"kernel.shm_rmid_forced\": may not be specified when 'hostIPC' is true",
      `spec.securityContext.sysctls[1].name: Invalid value: "Bad.Name": ${SYSCTL}`,
      'spec.securityContext.sysctls[2].name: Duplicate value: "kernel.shm_rmid_forced"',
      "spec.securityContext.sysctls[2].name: Invalid value: \"kernel.shm_rmid_forced\": may not be specified when 'hostIPC' is true",
      "spec.securityContext.sysctls[3].name: Invalid value: \"net/ipv4/ip_forward\": may not be specified when 'hostNetwork' is true",
      "spec.securityContext.sysctls[4].name: Invalid value: \"fs.mqueue.msg_max\": may not be specified when 'hostIPC' is true",
      // a missing name is the schema check's to report
    ]);
  });

  it('checks the fsGroup change policy and the seccomp and AppArmor profiles', () => {
    expect(messages({ securityContext: { fsGroupChangePolicy: 'Never', seccompProfile: { type: 'Localhost' }, appArmorProfile: { type: 'Localhost', localhostProfile: ' p ' } } })).toEqual([
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Never": supported values: "Always", "OnRootMismatch"',
      'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: " p ": must not be padded with whitespace',
    ]);
    expect(messages({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: '../x.json' }, appArmorProfile: { type: 'RuntimeDefault', localhostProfile: 'p' } } })).toEqual([
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: "../x.json": must not contain \'..\'',
      'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
    ]);
    expect(messages({ securityContext: { seccompProfile: { type: 'Strict' }, appArmorProfile: { type: '' } } })).toEqual([
      'spec.securityContext.seccompProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      'spec.securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set',
    ]);
    // upstream quotes the profile as Go's %#v prints it, pointer address and all
    expect(messages({ securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'p' } } }))
      .toEqual([expect.stringMatching(/^spec\.securityContext\.seccompProfile\.localhostProfile: Invalid value: core\.SeccompProfile\{Type:"RuntimeDefault", LocalhostProfile:\(\*string\)\(0x[0-9a-f]+\)\}: can only be set when seccomp type is Localhost$/)]);
  });

  it('checks Windows options', () => {
    const user = (runAsUserName: string) => messages({ securityContext: { windowsOptions: { runAsUserName } } });
    const at = 'spec.securityContext.windowsOptions.runAsUserName';
    expect(user('NT AUTHORITY\\SYSTEM')).toEqual([]);
    expect(user('')).toEqual([`${at}: Invalid value: "": runAsUserName cannot be an empty string`]);
    expect(user('a\\b\\c')).toEqual([`${at}: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash`]);
    expect(user('dom\\')).toEqual([`${at}: Invalid value: "dom\\\\": runAsUserName's User cannot be empty`]);
    expect(user('...')).toEqual([`${at}: Invalid value: "...": runAsUserName's User cannot contain only periods or spaces`]);
    expect(user('a@b')).toEqual([`${at}: Invalid value: "a@b": runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`]);
    expect(messages({ securityContext: { windowsOptions: { gmsaCredentialSpecName: 'Bad_Name', gmsaCredentialSpec: '' } } })).toEqual([
      expect.stringMatching(/^spec\.securityContext\.windowsOptions\.gmsaCredentialSpecName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/),
      'spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string',
    ]);
  });
});

describe('validateWindowsHostProcess', () => {
  const host = (hostProcess?: boolean) => ({ name: 'c', securityContext: hostProcess === undefined ? {} : { windowsOptions: { hostProcess } } });
  const messagesOf = (spec: KubeObject): string[] => {
    const causes: StatusCause[] = [];
    validateWindowsHostProcess(spec, 'spec', causes);
    return causes.map((c) => `${c.field}: ${c.message}`);
  };

  it('needs every container a host process, the same as the pod\'s, and the host network', () => {
    expect(messagesOf({ hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } }, containers: [host(), host(true)] })).toEqual([]);
    expect(messagesOf({ containers: [host(true), host()] })).toEqual([
      'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    ]);
    expect(messagesOf({ hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } }, initContainers: [host(false)], containers: [host()] })).toEqual([
      'spec.initContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
      'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
    ]);
  });
});
