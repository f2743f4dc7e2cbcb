// A container's securityContext, as upstream's ValidateSecurityContext checks it; the seccomp, AppArmor and Windows
// options are checked as a pod's are (pod-security.ts).
//
// Left out, as 1.32 does with its default feature gates: procMount (ProcMountType is beta but off there: upstream
// resets any value to Default before validation, so neither an unknown value nor Unmasked is refused) and hostUsers
// (UserNamespacesSupport, off). `privileged` under --allow-privileged=false is strategies/privileged.ts's.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { ID_RANGE, invalidRaw, isObj, isValidID, list } from './field-checks.js';
import { goPointer } from './go-values.js';
import { checkAppArmorProfile, checkSeccompProfile, checkWindowsOptions } from './pod-security.js';
import { int, isSet } from './shapes.js';

/** Go's %#v of a core.SecurityContext: upstream quotes the whole context as the bad value of some errors. */
export const goSecurityContext = (sc: KubeObject): string => 'core.SecurityContext{'
  + `Capabilities:${goPointer('core.Capabilities', isSet(sc.capabilities))}, Privileged:${goPointer('bool', isSet(sc.privileged))}, `
  + `SELinuxOptions:${goPointer('core.SELinuxOptions', isSet(sc.seLinuxOptions))}, `
  + `WindowsOptions:${goPointer('core.WindowsSecurityContextOptions', isSet(sc.windowsOptions))}, `
  + `RunAsUser:${goPointer('int64', isSet(sc.runAsUser))}, RunAsGroup:${goPointer('int64', isSet(sc.runAsGroup))}, `
  + `RunAsNonRoot:${goPointer('bool', isSet(sc.runAsNonRoot))}, ReadOnlyRootFilesystem:${goPointer('bool', isSet(sc.readOnlyRootFilesystem))}, `
  + `AllowPrivilegeEscalation:${goPointer('bool', isSet(sc.allowPrivilegeEscalation))}, ProcMount:${goPointer('core.ProcMountType', isSet(sc.procMount))}, `
  + `SeccompProfile:${goPointer('core.SeccompProfile', isSet(sc.seccompProfile))}, AppArmorProfile:${goPointer('core.AppArmorProfile', isSet(sc.appArmorProfile))}}`;

/** ValidateSecurityContext for a container's `securityContext` at `path` (".../securityContext"). */
export function validateContainerSecurityContext(sc: unknown, path: string, out: StatusCause[]): void {
  if (!isObj(sc)) return;
  if (isSet(sc.runAsUser) && !isValidID(int(sc.runAsUser))) out.push(invalidValue(`${path}.runAsUser`, int(sc.runAsUser), ID_RANGE));
  if (isSet(sc.runAsGroup) && !isValidID(int(sc.runAsGroup))) out.push(invalidValue(`${path}.runAsGroup`, int(sc.runAsGroup), ID_RANGE));
  checkSeccompProfile(out, sc.seccompProfile, `${path}.seccompProfile`);
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) out.push(invalidRaw(path, goSecurityContext(sc), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of isObj(sc.capabilities) ? list(sc.capabilities.add) : []) {
      if (cap === 'CAP_SYS_ADMIN') out.push(invalidRaw(path, goSecurityContext(sc), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  checkWindowsOptions(out, sc.windowsOptions, `${path}.windowsOptions`);
  checkAppArmorProfile(out, sc.appArmorProfile, `${path}.appArmorProfile`);
}
