// Volumes that are a path on the node: hostPath (with upstream's type checks and *OrCreate), and a
// persistentVolumeClaim resolved, as upstream's desired-state-of-world populator does, to its bound
// PersistentVolume's hostPath or local path. Failures carry upstream's messages.
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isNotFound, type KubeObject } from '../../client/index.js';

export type VolumeObjectKind = 'configmaps' | 'secrets' | 'persistentvolumeclaims' | 'persistentvolumes';
export type VolumeObjectGetter = (kind: VolumeObjectKind, namespace: string, name: string) => Promise<KubeObject | undefined>;

export interface HostPathSource { path: string; type?: string }

/** A volume could not be set up: FailedMount with this message, the pod waits. */
export class VolumeError extends Error {
  override name = 'VolumeError';
}

/** A claim is not usable yet (missing, unbound, being deleted): upstream's "error processing PVC" family. */
export class ClaimError extends Error {
  override name = 'ClaimError';
}

const checks: Record<string, [test: (s: Awaited<ReturnType<typeof stat>>) => boolean, what: string]> = {
  Directory: [(s) => s.isDirectory(), 'a directory'],
  File: [(s) => s.isFile(), 'a file'],
  Socket: [(s) => s.isSocket(), 'a socket file'],
  CharDevice: [(s) => s.isCharacterDevice(), 'a character device'],
  BlockDevice: [(s) => s.isBlockDevice(), 'a block device'],
};

/** Checks (or creates, for DirectoryOrCreate / FileOrCreate) a hostPath as upstream's hostPathTypeChecker. */
export async function prepareHostPath(volume: string, src: HostPathSource): Promise<string> {
  const type = src.type ?? '';
  if (type === 'DirectoryOrCreate') {
    await mkdir(src.path, { recursive: true, mode: 0o755 });
  } else if (type === 'FileOrCreate') {
    await mkdir(dirname(src.path), { recursive: true, mode: 0o755 });
    await (await open(src.path, 'a', 0o644)).close();
  }
  const check = checks[type.replace(/OrCreate$/, '')];
  if (check) {
    const s = await stat(src.path).catch(() => undefined);
    if (!s || !check[0](s)) throw new VolumeError(`MountVolume.SetUp failed for volume "${volume}" : hostPath type check failed: ${src.path} is not ${check[1]}`);
  }
  return src.path;
}

/** The node path behind a pod's claim: the bound PersistentVolume's hostPath or local path. */
export async function claimPath(namespace: string, volume: string, claimName: string, get: VolumeObjectGetter): Promise<string> {
  const fail = (why: string): never => { throw new ClaimError(`error processing PVC ${namespace}/${claimName}: ${why}`); };
  const fetch = async (kind: VolumeObjectKind, ns: string, name: string): Promise<KubeObject | undefined> => {
    try { return await get(kind, ns, name); } catch (e) { if (isNotFound(e)) return undefined; throw e; }
  };
  const claim = await fetch('persistentvolumeclaims', namespace, claimName);
  if (!claim) return fail(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`);
  if (claim.metadata?.deletionTimestamp) return fail('PVC is being deleted');
  if (claim.status?.phase !== 'Bound') return fail('PVC is not bound');
  const pvName = claim.spec?.volumeName as string | undefined;
  if (!pvName) return fail('PVC has empty pvc.Spec.VolumeName');
  const pv = await fetch('persistentvolumes', '', pvName);
  if (!pv) return fail(`failed to fetch PV ${pvName} from API server: persistentvolumes "${pvName}" not found`);
  const ref = pv.spec?.claimRef as { uid?: string } | undefined;
  if (!ref) return fail(`found PV object ${pvName} but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim`);
  if (ref.uid !== claim.metadata?.uid) return fail(`found PV object ${pvName} but its pv.Spec.ClaimRef.UID ${ref.uid ?? ''} does not point to claim.UID ${claim.metadata?.uid ?? ''}`);
  const hostPath = pv.spec?.hostPath as HostPathSource | undefined;
  if (hostPath) return prepareHostPath(volume, hostPath);
  const local = pv.spec?.local as { path: string } | undefined;
  if (local) {
    if (!(await stat(local.path).catch(() => undefined))) throw new VolumeError(`MountVolume.NewMounter initialization failed for volume "${pvName}" : path "${local.path}" does not exist`);
    return local.path;
  }
  throw new VolumeError(`MountVolume.SetUp failed for volume "${pvName}" : mini-kube mounts only hostPath and local persistent volumes`);
}
