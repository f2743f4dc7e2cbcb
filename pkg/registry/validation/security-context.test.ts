import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateContainerSecurityContext } from './security-context.js';

const S = 'spec.containers[0].securityContext';
const errors = (sc: unknown): string[] => {
  const out: StatusCause[] = [];
  validateContainerSecurityContext(sc, S, out);
  return out.map(causeToString);
};

describe('container securityContext', () => {
  it('checks user and group IDs', () => {
    expect(errors({ runAsUser: -1, runAsGroup: 2147483648 })).toEqual([
      `${S}.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`,
      `${S}.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive`,
    ]);
  });

  it('refuses no privilege escalation with privileged or CAP_SYS_ADMIN, quoting the context as Go does', () => {
    const out = errors({ allowPrivilegeEscalation: false, privileged: true, capabilities: { add: ['CAP_SYS_ADMIN'] } });
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^spec\.containers\[0\]\.securityContext: Invalid value: core\.SecurityContext\{Capabilities:\(\*core\.Capabilities\)\(0xc[0-9a-f]+\), Privileged:\(\*bool\)\(0xc[0-9a-f]+\), SELinuxOptions:\(\*core\.SELinuxOptions\)\(nil\), .*\}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true$/);
    expect(out[1]).toMatch(/: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN$/);
    expect(errors({ allowPrivilegeEscalation: true, privileged: true, capabilities: { add: ['CAP_SYS_ADMIN'] } })).toEqual([]);
  });

  it('checks seccomp and AppArmor profiles', () => {
    expect(errors({ seccompProfile: { type: 'Localhost' }, appArmorProfile: { type: 'Strict' } })).toEqual([
      `${S}.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost`,
      `${S}.appArmorProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
    ]);
  });

  it('leaves procMount alone: ProcMountType is off in 1.32 and upstream resets it to Default', () => {
    expect(errors({ procMount: 'Unmasked' })).toEqual([]);
  });
});
