// A pod's security settings, as upstream's validatePodSpecSecurityContext checks them: IDs in range, sysctls named
// and not shared with the host's network or IPC namespace, seccomp and AppArmor profiles, Windows options; and the
// rules of a pod's OS (validateLinux, validateWindows) and of Windows HostProcess pods
// (validateWindowsHostProcessPod; --allow-privileged is privileged.ts's).
//
// Upstream keeps hostNetwork, hostPID, hostIPC and shareProcessNamespace inside the pod's security context: its
// error paths say so (spec.securityContext.shareProcessNamespace). supplementalGroupsPolicy, seLinuxChangePolicy
// and hostUsers are behind feature gates off by default in 1.32: upstream drops them before validation, so they
// are not checked here.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { isDNS1123Subdomain } from '../../apimachinery/names.js';
import { checkLocalDescendingPath, ID_RANGE, invalidRaw, isObj, isValidID, list, num, requireSchemaField, str } from './field-checks.js';

const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_SOURCE = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`;
const SYSCTL_NAME = new RegExp(SYSCTL_SOURCE);
const SYSCTL_MAX_LENGTH = 253;
const SYSCTL_NAME_ERROR = `must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${SYSCTL_SOURCE}`;

/** sysctl.NormalizeName: `net/ipv4/ip_forward` is `net.ipv4.ip_forward` (slashes and dots swap). */
function normalizeSysctl(name: string): string {
  const dot = name.indexOf('.');
  const slash = name.indexOf('/');
  if (slash < 0 || (dot >= 0 && dot < slash)) return name;
  let out = '';
  for (const ch of name) out += ch === '.' ? '/' : ch === '/' ? '.' : ch;
  return out;
}

/** The kernel namespace a sysctl belongs to: 'net', 'ipc' or undefined (sysctl.GetNamespace). */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  let n = normalizeSysctl(name);
  const star = n.indexOf('*');
  if (star >= 0) n = n.slice(0, star);
  if (n === 'kernel.sem' || n.startsWith('kernel.shm') || n.startsWith('kernel.msg') || n.startsWith('fs.mqueue.')) return 'ipc';
  if (n.startsWith('net.')) return 'net';
  return undefined;
}

function checkSysctls(causes: StatusCause[], spec: KubeObject, sysctls: readonly unknown[], path: string): void {
  const names = new Set<string>();
  sysctls.forEach((s, i) => {
    const name = isObj(s) ? str(s.name) : '';
    const at = `${path}[${i}].name`;
    if (!name) requireSchemaField(causes, at, isObj(s) ? s.name : undefined);
    else if (name.length > SYSCTL_MAX_LENGTH || !SYSCTL_NAME.test(name)) causes.push(invalidValue(at, name, SYSCTL_NAME_ERROR));
    else if (names.has(name)) causes.push(duplicate(at, name));
    // ValidateHostSysctl (a create never allows a namespaced sysctl on a host namespace)
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') causes.push(invalidValue(at, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') causes.push(invalidValue(at, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
}

/** Go's %#v of a pointer field: the address is the process's, never the same twice. */
const goPointer = (v: unknown, type: string): string => (v === undefined || v === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`);

/** validateSeccompProfileField. */
export function checkSeccompProfile(causes: StatusCause[], sp: unknown, path: string): void {
  if (!isObj(sp)) return;
  const type = str(sp.type);
  if (!type) causes.push(required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!PROFILE_TYPES.includes(type)) causes.push(notSupported(`${path}.type`, type, PROFILE_TYPES));
  const profile = sp.localhostProfile;
  if (type === 'Localhost') {
    if (typeof profile !== 'string') causes.push(required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else checkLocalDescendingPath(causes, `${path}.localhostProfile`, profile);
  } else if (profile !== undefined && profile !== null) {
    const rendered = `core.SeccompProfile{Type:${JSON.stringify(type)}, LocalhostProfile:${goPointer(profile, 'string')}}`;
    causes.push(invalidRaw(`${path}.localhostProfile`, rendered, 'can only be set when seccomp type is Localhost'));
  }
}

/** ValidateAppArmorProfileField. */
export function checkAppArmorProfile(causes: StatusCause[], profile: unknown, path: string): void {
  if (!isObj(profile)) return;
  const type = str(profile.type);
  const local = profile.localhostProfile;
  const at = `${path}.localhostProfile`;
  switch (type) {
    case 'Localhost':
      if (typeof local !== 'string') {
        causes.push(required(at, 'must be set when AppArmor type is Localhost'));
        break;
      }
      if (local.trim() !== local) causes.push(invalidValue(at, local, 'must not be padded with whitespace'));
      else if (local === '') causes.push(required(at, 'must be set when AppArmor type is Localhost'));
      if (local.length > 4095) causes.push(tooLong(at, 4095));
      break;
    case 'RuntimeDefault': case 'Unconfined':
      if (typeof local === 'string') causes.push(invalidValue(at, local, 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      causes.push(required(`${path}.type`, 'type is required when appArmorProfile is set'));
      break;
    default:
      causes.push(notSupported(`${path}.type`, type, PROFILE_TYPES));
  }
}

// validateWindowsSecurityContextOptions
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_LABEL_ANY_CASE = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DNS_DOMAIN = new RegExp(`^${DNS_LABEL_ANY_CASE}(?:\\.${DNS_LABEL_ANY_CASE})*$`);
const USER_BAD_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const USER_DOTS_SPACES = /^[. ]+$/;
const MAX_GMSA_SPEC_KIB = 64;

/** validateWindowsSecurityContextOptions (a pod's or a container's windowsOptions at `path`). */
export function checkWindowsOptions(causes: StatusCause[], options: unknown, path: string): void {
  if (!isObj(options)) return;
  if (typeof options.gmsaCredentialSpecName === 'string') {
    const name = options.gmsaCredentialSpecName;
    for (const m of isDNS1123Subdomain(name)) causes.push(invalidValue(`${path}.gmsaCredentialSpecName`, name, m));
  }
  if (typeof options.gmsaCredentialSpec === 'string') {
    const spec = options.gmsaCredentialSpec;
    if (spec.length === 0) causes.push(invalidValue(`${path}.gmsaCredentialSpec`, spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (Buffer.byteLength(spec) > MAX_GMSA_SPEC_KIB * 1024) {
      causes.push(invalidValue(`${path}.gmsaCredentialSpec`, spec, `gmsaCredentialSpec size must be under ${MAX_GMSA_SPEC_KIB} KiB`));
    }
  }
  if (typeof options.runAsUserName !== 'string') return;
  const userName = options.runAsUserName;
  const at = `${path}.runAsUserName`;
  const bad = (msg: string): void => { causes.push(invalidValue(at, userName, msg)); };
  const parts = userName.split('\\');
  if (userName.length === 0) return bad('runAsUserName cannot be an empty string');
  if (CONTROL_CHARS.test(userName)) return bad('runAsUserName cannot contain control characters');
  if (parts.length > 2) return bad('runAsUserName cannot contain more than one backslash');
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0]! : '';
  const user = hasDomain ? parts[1]! : parts[0]!;
  if (domain.length >= 256) bad('runAsUserName\'s Domain length must be under 256 characters');
  if (hasDomain && !NETBIOS_DOMAIN.test(domain) && !DNS_DOMAIN.test(domain)) bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  if (user.length === 0) bad("runAsUserName's User cannot be empty");
  else if (user.length > 104) bad("runAsUserName's User length must not be longer than 104 characters");
  if (USER_DOTS_SPACES.test(user)) bad("runAsUserName's User cannot contain only periods or spaces");
  if (USER_BAD_CHARS.test(user)) bad('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
}

const checkID = (causes: StatusCause[], path: string, v: unknown): void => {
  const id = num(v);
  if (id !== undefined && !isValidID(id)) causes.push(invalidValue(path, id, ID_RANGE));
};

/** validatePodSpecSecurityContext: `spec` the pod spec at `specPath`. */
export function validatePodSecurityContext(spec: KubeObject, specPath: string, causes: StatusCause[]): void {
  const sc = isObj(spec.securityContext) ? spec.securityContext : {};
  const path = `${specPath}.securityContext`;
  checkID(causes, `${path}.fsGroup`, sc.fsGroup);
  checkID(causes, `${path}.runAsUser`, sc.runAsUser);
  checkID(causes, `${path}.runAsGroup`, sc.runAsGroup);
  list(sc.supplementalGroups).forEach((g, i) => checkID(causes, `${path}.supplementalGroups[${i}]`, g));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    causes.push(invalidValue(`${path}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  const sysctls = list(sc.sysctls);
  if (sysctls.length) checkSysctls(causes, spec, sysctls, `${path}.sysctls`);
  if (typeof sc.fsGroupChangePolicy === 'string' && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy)) {
    causes.push(notSupported(`${path}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES));
  }
  checkSeccompProfile(causes, sc.seccompProfile, `${path}.seccompProfile`);
  checkWindowsOptions(causes, sc.windowsOptions, `${path}.windowsOptions`);
  checkAppArmorProfile(causes, sc.appArmorProfile, `${path}.appArmorProfile`);
}

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** podshelper.VisitContainersWithPath: init, regular, then ephemeral containers. */
export function eachContainer(spec: KubeObject, specPath: string, visit: (c: KubeObject, path: string) => void): void {
  for (const kind of CONTAINER_LISTS) {
    const containers = spec[kind];
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const c: unknown = containers[i];
      if (isObj(c)) visit(c, `${specPath}.${kind}[${i}]`);
    }
  }
}

/** validateWindowsHostProcessPod, but for --allow-privileged (privileged.ts). */
export function validateWindowsHostProcess(spec: KubeObject, specPath: string, causes: StatusCause[]): void {
  const podOptions = isObj(spec.securityContext) && isObj(spec.securityContext.windowsOptions) ? spec.securityContext.windowsOptions : undefined;
  const podHostProcess = typeof podOptions?.hostProcess === 'boolean' ? podOptions.hostProcess : undefined;
  let containers = 0;
  let hostProcess = 0;
  eachContainer(spec, specPath, (c, path) => {
    containers++;
    const options = isObj(c.securityContext) && isObj(c.securityContext.windowsOptions) ? c.securityContext.windowsOptions : undefined;
    const own = typeof options?.hostProcess === 'boolean' ? options.hostProcess : undefined;
    if (podHostProcess !== undefined && own !== undefined && podHostProcess !== own) {
      causes.push(invalidValue(`${path}.securityContext.windowsOptions.hostProcess`, own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`));
    }
    if (own === true || (own === undefined && podHostProcess === true)) hostProcess++;
  });
  if (hostProcess === 0) return;
  if (hostProcess !== containers) causes.push(invalidValue(specPath, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
  if (spec.hostNetwork !== true) causes.push(invalidValue(`${specPath}.hostNetwork`, false, 'hostNetwork must be true if pod contains any hostProcess containers'));
}

const set = (v: unknown): boolean => v !== undefined && v !== null;
const WINDOWS = 'cannot be set for a windows pod';

/** validateOS, then validateLinux or validateWindows. */
export function validateOS(spec: KubeObject, specPath: string, causes: StatusCause[]): void {
  if (!isObj(spec.os)) return;
  const name = str(spec.os.name);
  if (!name) {
    causes.push(required(`${specPath}.os.name`, 'cannot be empty'));
    return;
  }
  const sc = isObj(spec.securityContext) ? spec.securityContext : {};
  const scPath = `${specPath}.securityContext`;
  if (name === 'linux') {
    const linuxOnly = 'windows options cannot be set for a linux pod';
    if (set(sc.windowsOptions)) causes.push(forbidden(`${scPath}.windowsOptions`, linuxOnly));
    eachContainer(spec, specPath, (c, path) => {
      if (isObj(c.securityContext) && set(c.securityContext.windowsOptions)) causes.push(forbidden(`${path}.securityContext.windowsOptions`, linuxOnly));
    });
  } else if (name === 'windows') {
    if (set(sc.appArmorProfile)) causes.push(forbidden(`${scPath}.appArmorProfile`, WINDOWS));
    if (set(sc.seLinuxOptions)) causes.push(forbidden(`${scPath}.seLinuxOptions`, WINDOWS));
    if (spec.hostPID === true) causes.push(forbidden(`${specPath}.hostPID`, WINDOWS));
    if (spec.hostIPC === true) causes.push(forbidden(`${specPath}.hostIPC`, WINDOWS));
    if (set(sc.seccompProfile)) causes.push(forbidden(`${scPath}.seccompProfile`, WINDOWS));
    if (set(sc.fsGroup)) causes.push(forbidden(`${scPath}.fsGroup`, WINDOWS));
    if (set(sc.fsGroupChangePolicy)) causes.push(forbidden(`${scPath}.fsGroupChangePolicy`, WINDOWS));
    if (list(sc.sysctls).length > 0) causes.push(forbidden(`${scPath}.sysctls`, WINDOWS));
    if (set(spec.shareProcessNamespace)) causes.push(forbidden(`${specPath}.shareProcessNamespace`, WINDOWS));
    if (set(sc.runAsUser)) causes.push(forbidden(`${scPath}.runAsUser`, WINDOWS));
    if (set(sc.runAsGroup)) causes.push(forbidden(`${scPath}.runAsGroup`, WINDOWS));
    if (set(sc.supplementalGroups)) causes.push(forbidden(`${scPath}.supplementalGroups`, WINDOWS));
    eachContainer(spec, specPath, (c, path) => {
      const csc = c.securityContext;
      if (!isObj(csc)) return;
      const at = `${path}.securityContext`;
      for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged',
        'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'] as const) {
        if (set(csc[f])) causes.push(forbidden(`${at}.${f}`, WINDOWS));
      }
    });
  } else {
    causes.push(notSupported(`${specPath}.os`, name, ['linux', 'windows']));
  }
}
