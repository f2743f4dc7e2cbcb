// A container's volumeMounts and volumeDevices, as upstream's ValidateVolumeMounts and ValidateVolumeDevices check
// them against the pod's volumes. Some of upstream's paths leave the index out (".volumeMounts.subPath"): kept, as
// kubectl shows them.
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notFound, notSupported } from '../../apimachinery/field.js';
import type { KubeObject } from '../../../api/types.js';
import { checkLocalDescendingPath, isObj, list, requireSchemaField, str } from './field-checks.js';
import { isSet } from './shapes.js';

const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

/** validatePathNoBacksteps: no ".." element. */
const hasBacksteps = (p: string): boolean => p === '..' || p.startsWith('../') || p.endsWith('/..') || p.includes('/../');


const isPrivileged = (container: KubeObject): boolean => isObj(container.securityContext) && container.securityContext.privileged === true;

/** Names and paths of a list of mounts or devices (GetVolumeMountMap, GetVolumeDeviceMap: the last of a name wins). */
function pathsByName(items: readonly unknown[], pathKey: string): Map<string, string> | undefined {
  if (items.length === 0) return undefined;
  const m = new Map<string, string>();
  for (const it of items) if (isObj(it)) m.set(str(it.name), str(it[pathKey]));
  return m;
}

const hasPath = (m: Map<string, string> | undefined, p: string): boolean => {
  if (!m) return false;
  for (const v of m.values()) if (v === p) return true;
  return false;
};

function validateMounts(mounts: readonly unknown[], devices: Map<string, string> | undefined, volumes: ReadonlyMap<string, KubeObject>,
  container: KubeObject, path: string, out: StatusCause[]): void {
  const mountPoints = new Set<string>();
  mounts.forEach((m, i) => {
    if (!isObj(m)) return;
    const at = `${path}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (name === '') requireSchemaField(out, `${at}.name`, m.name);
    if (!volumes.has(name)) out.push(notFound(`${at}.name`, name));
    if (mountPath === '') requireSchemaField(out, `${at}.mountPath`, m.mountPath);
    if (mountPoints.has(mountPath)) out.push(invalidValue(`${at}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices?.has(name)) out.push(invalidValue(`${at}.name`, name, 'must not already exist in volumeDevices'));
    if (hasPath(devices, mountPath)) out.push(invalidValue(`${at}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (subPath.length > 0) checkLocalDescendingPath(out, `${path}.subPath`, subPath);
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) out.push(invalidValue(`${at}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      checkLocalDescendingPath(out, `${path}.subPathExpr`, subPathExpr);
    }
    const propagation: unknown = m.mountPropagation;
    if (isSet(propagation)) {
      const p = str(propagation);
      if (!PROPAGATIONS.includes(p)) out.push(notSupported(`${path}.mountPropagation`, p, PROPAGATIONS));
      if (p === 'Bidirectional' && !isPrivileged(container)) {
        out.push(forbidden(`${path}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    // RecursiveReadOnlyMounts is beta and on in 1.32
    if (isSet(m.recursiveReadOnly)) {
      const rro = str(m.recursiveReadOnly);
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (m.readOnly !== true) out.push(forbidden(`${path}.recursiveReadOnly`, 'may only be specified when readOnly is true'));
        if (isSet(propagation) && str(propagation) !== 'None') {
          out.push(forbidden(`${path}.recursiveReadOnly`, 'may only be specified when mountPropagation is None or not specified'));
        }
      } else if (rro !== 'Disabled') {
        out.push(notSupported(`${path}.recursiveReadOnly`, rro, RECURSIVE_READ_ONLY));
      }
    }
  });
}

function validateDevices(devices: readonly unknown[], mounts: Map<string, string> | undefined, volumes: ReadonlyMap<string, KubeObject>,
  path: string, out: StatusCause[]): void {
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  devices.forEach((d, i) => {
    if (!isObj(d)) return;
    const at = `${path}[${i}]`;
    const name = str(d.name);
    const devicePath = str(d.devicePath);
    const volume = volumes.get(name);
    if (name === '') requireSchemaField(out, `${at}.name`, d.name);
    if (deviceNames.has(name)) out.push(invalidValue(`${at}.name`, name, 'must be unique'));
    if (volume !== undefined) {
      // a block device comes from a claim: a persistentVolumeClaim or a generic ephemeral volume
      if (!isSet(volume.persistentVolumeClaim) && !isSet(volume.ephemeral)) {
        out.push(invalidValue(`${at}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
      }
    } else {
      out.push(notFound(`${at}.name`, name));
    }
    if (devicePath === '') requireSchemaField(out, `${at}.devicePath`, d.devicePath);
    if (devicePaths.has(devicePath)) out.push(invalidValue(`${at}.devicePath`, devicePath, 'must be unique'));
    if (devicePath.length > 0 && hasBacksteps(devicePath)) out.push(invalidValue(`${at}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    else devicePaths.add(devicePath);
    if (mounts?.has(name)) out.push(invalidValue(`${at}.name`, name, 'must not already exist in volumeMounts'));
    if (hasPath(mounts, devicePath)) out.push(invalidValue(`${at}.devicePath`, devicePath, 'must not already exist as a path in volumeMounts'));
    if (name.length > 0) deviceNames.add(name);
  });
}

/** `volumeMounts` and `volumeDevices` of a container at `path` (the container's), against the pod's `volumes`. */
export function validateContainerVolumes(container: KubeObject, volumes: ReadonlyMap<string, KubeObject>, path: string, out: StatusCause[]): void {
  const mounts = list(container.volumeMounts);
  const devices = list(container.volumeDevices);
  if (mounts.length === 0 && devices.length === 0) return;
  const mountPaths = pathsByName(mounts, 'mountPath');
  const devicePaths = pathsByName(devices, 'devicePath');
  if (mounts.length) validateMounts(mounts, devicePaths, volumes, container, `${path}.volumeMounts`, out);
  if (devices.length) validateDevices(devices, mountPaths, volumes, `${path}.volumeDevices`, out);
}
