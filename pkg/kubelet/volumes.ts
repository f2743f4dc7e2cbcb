// Pod volumes for the process runtime, materialised under <root>/pods/<uid>/volumes/<name> as upstream's volume
// plugins do: emptyDir, configMap, secret, downwardAPI and projected (configMap, secret, downwardAPI,
// serviceAccountToken via TokenRequest) written atomically (volumes/atomic-writer.ts) so that a later set-up with
// changed sources updates them in place; an emptyDir of medium Memory is a tmpfs (volumes/memory-medium.ts) where the
// kubelet has root; hostPath and persistentVolumeClaim (volumes/host-volumes.ts) are node
// paths. A container finds its mounts as symlinks under $MINI_KUBE_ROOTFS/<mountPath>, and, where the runtime can
// build it a root of its own (runtime/container-root.ts), at the mountPath itself; a subPath mount into an atomically
// written volume is a copy taken at start, so it is not updated (as upstream's bind mount).
// A missing ConfigMap, Secret or claim that is not optional is a VolumeError of that volume alone, backed off on its
// own (volumes/operation-backoff.ts) while the others are set up: the pod waits (FailedMount) until every one is.
import { chmod, chown, cp, lstat, mkdir, realpath, rm, stat, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isNotFound, type KubeObject } from '../client/index.js';
import { writeAtomically, type Payload } from './volumes/atomic-writer.js';
import { memoryMediumSize, mountMemoryMedium } from './volumes/memory-medium.js';
import { tearDownPodVolumes } from './volumes/pod-dir.js';
import { nestedMountPoint, recordMountPoints, type MountPoint } from './volumes/mount-points.js';
import { OperationBackoff } from './volumes/operation-backoff.js';
import { ClaimError, VolumeError, claimPath, prepareHostPath, type HostPathSource, type VolumeObjectGetter } from './volumes/host-volumes.js';
import type { Mount } from './runtime/types.js';
import { ResourceFieldError, resourceFieldValue, selectedContainer, type NodeAllocatable, type ResourceFieldSelector } from './resource-field.js';

export { VolumeError, type VolumeObjectGetter, type VolumeObjectKind } from './volumes/host-volumes.js';

export type TokenRequester = (namespace: string, serviceAccount: string, audiences: string[] | undefined, expirationSeconds: number, pod: KubeObject) => Promise<string>;

interface KeyToPath { key: string; path: string; mode?: number }
interface DownwardItem { path: string; fieldRef?: { fieldPath: string }; resourceFieldRef?: ResourceFieldSelector; mode?: number }
interface ConfigSource { name: string; items?: KeyToPath[]; optional?: boolean }
export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: string };
  hostPath?: HostPathSource;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  configMap?: ConfigSource & { defaultMode?: number };
  secret?: Omit<ConfigSource, 'name'> & { secretName: string; defaultMode?: number };
  downwardAPI?: { items?: DownwardItem[]; defaultMode?: number };
  projected?: {
    defaultMode?: number;
    sources?: { configMap?: ConfigSource; secret?: ConfigSource; downwardAPI?: { items?: DownwardItem[] }; serviceAccountToken?: { path: string; audience?: string; expirationSeconds?: number } }[];
  };
}

const DEFAULT_MODE = 0o644;

interface RunAs { runAsUser?: number; fsGroup?: number }
const podFsGroup = (pod: KubeObject): number | undefined => (pod.spec?.securityContext as RunAs | undefined)?.fsGroup;

/**
 * Who owns the pod's volumes, when this kubelet may chown (root): the pod's fsGroup, and upstream's FsUser, the
 * runAsUser every container of the pod shares (none when one runs as the image's user or two differ).
 */
const volumeOwners = (pod: KubeObject): { fsGroup?: number; fsUser?: number } => {
  if (process.getuid?.() !== 0) return {};
  const podRunAs = (pod.spec?.securityContext as RunAs | undefined)?.runAsUser;
  const containers = ['initContainers', 'containers', 'ephemeralContainers']
    .flatMap((k) => (pod.spec?.[k] ?? []) as { securityContext?: RunAs }[]);
  const users = new Set(containers.map((c) => c.securityContext?.runAsUser ?? podRunAs));
  const [only] = users;
  return { fsGroup: podFsGroup(pod), fsUser: users.size === 1 && only !== undefined ? only : undefined };
};

const fieldOf = (pod: KubeObject, path: string): string => {
  const m = /^metadata\.(labels|annotations)(?:\['(.+)'\])?$/.exec(path);
  if (m) {
    const set = (m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations) ?? {};
    return m[2] ? set[m[2]] ?? '' : Object.entries(set).sort().map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n');
  }
  if (path === 'metadata.name') return pod.metadata?.name ?? '';
  if (path === 'metadata.namespace') return pod.metadata?.namespace ?? '';
  if (path === 'metadata.uid') return pod.metadata?.uid ?? '';
  return '';
};

/** Does the volume's content come from API objects (and so get refreshed)? */
export const isProjection = (v: Volume): boolean => !!(v.configMap || v.secret || v.downwardAPI || v.projected);

export interface VolumeManagerOptions {
  get: VolumeObjectGetter;
  requestToken?: TokenRequester;
  now?: () => number;
  /** The node's allocatable, that resourceFieldRef limits default to. */
  node?: NodeAllocatable;
}

/** What a set-up of a pod's volumes did. */
export interface VolumeSetUp {
  /** Where each volume is on the node, by name: those set up, and those failing now that were set up before. */
  paths: Map<string, string>;
  /** The FailedMount message of each volume that failed now. */
  failures: string[];
  /** When the first volume still failing may be tried again (none: every one is up to date). */
  retryAt?: number;
}

/** Sets pods' volumes up and refreshes them; remembers service-account tokens until 80% of their lifetime. */
export class VolumeManager {
  private readonly tokens = new Map<string, { token: string; renewAt: number }>();
  private readonly backoff = new OperationBackoff();

  private readonly node: NodeAllocatable;

  constructor(private readonly o: VolumeManagerOptions) {
    this.node = o.node ?? { cpu: '1', memory: '1Gi' };
  }

  /**
   * The pod's volumes torn down on the node (volumes/pod-dir.ts: unmounted, then their directories removed with their
   * data and tokens; hostPaths and claims, node paths, untouched); then forgotten.
   */
  async tearDown(uid: string, podDir: string): Promise<void> {
    try {
      await tearDownPodVolumes(podDir);
    } finally {
      this.forget(uid);
    }
  }

  forget(uid: string): void {
    for (const k of this.tokens.keys()) if (k.startsWith(`${uid}/`)) this.tokens.delete(k);
    this.backoff.forget(`${uid}/`);
  }

  /**
   * Every volume of the pod set up or brought up to date (after `previous`), each on its own as upstream's volume
   * operations: one failing (or backing off) neither hides nor holds back the others.
   */
  async setUp(pod: KubeObject, podDir: string, previous?: Map<string, string>): Promise<VolumeSetUp> {
    const out: VolumeSetUp = { paths: new Map(), failures: [] };
    const owners = volumeOwners(pod);
    const now = (this.o.now ?? Date.now)();
    const later = (at: number): void => { out.retryAt = Math.min(out.retryAt ?? Infinity, at); };
    for (const v of (pod.spec?.volumes ?? []) as Volume[]) {
      const key = `${pod.metadata!.uid}/${v.name}`;
      const known = previous?.get(v.name);
      const waitUntil = this.backoff.waitUntil(key, now);
      if (waitUntil !== undefined) {
        if (known) out.paths.set(v.name, known);
        later(waitUntil);
        continue;
      }
      try {
        out.paths.set(v.name, await this.setUpVolume(pod, podDir, v, known, owners));
        this.backoff.succeeded(key);
      } catch (e) {
        if (!(e instanceof VolumeError)) throw e;
        out.failures.push(e.message);
        if (known) out.paths.set(v.name, known); // running containers keep what they have
        later(this.backoff.failed(key, now));
      }
    }
    return out;
  }

  /** One volume set up (or brought up to date): its path on the node. */
  private async setUpVolume(pod: KubeObject, podDir: string, v: Volume, known: string | undefined, { fsGroup, fsUser }: ReturnType<typeof volumeOwners>): Promise<string> {
    if (known && !isProjection(v)) return known; // node paths and emptyDirs stay where they were set up
    if (v.hostPath) return prepareHostPath(v.name, v.hostPath);
    if (v.persistentVolumeClaim) {
      try {
        return await claimPath(pod.metadata!.namespace!, v.name, v.persistentVolumeClaim.claimName, this.o.get);
      } catch (e) {
        if (!(e instanceof ClaimError)) throw e;
        throw new VolumeError(`Unable to attach or mount volumes: unmounted volumes=[${v.name}], unattached volumes=[], failed to process volumes=[${v.name}]: ${e.message}`);
      }
    }
    const dir = join(podDir, 'volumes', v.name);
    if (isProjection(v)) {
      await writeAtomically(dir, await this.payload(pod, v, fsUser), undefined, fsGroup);
      return dir;
    }
    await mkdir(dir, { recursive: true });
    // upstream's emptyDir is world-writable; with an fsGroup it is the group's, and setgid, so that what the
    // containers write there is the group's too (SetVolumeOwnership)
    if (v.emptyDir) {
      if (v.emptyDir.medium === 'Memory' && process.getuid?.() === 0) {
        await mountMemoryMedium(dir, memoryMediumSize(pod, v.emptyDir.sizeLimit, this.node.memory)).catch((e: unknown) => {
          throw new VolumeError(`MountVolume.SetUp failed for volume "${v.name}" : ${(e as Error).message}`);
        });
      }
      if (fsGroup !== undefined) await chown(dir, 0, fsGroup);
      await chmod(dir, fsGroup !== undefined ? 0o2777 : 0o777);
    }
    return dir;
  }

  private async source(kind: 'configmaps' | 'secrets', ns: string, src: ConfigSource, volume: string, mode: number): Promise<Payload> {
    let obj: KubeObject | undefined;
    try { obj = await this.o.get(kind, ns, src.name); } catch (e) { if (!isNotFound(e)) throw e; }
    if (!obj) {
      if (src.optional) return {};
      throw new VolumeError(`MountVolume.SetUp failed for volume "${volume}" : ${kind === 'configmaps' ? 'configmap' : 'secret'} "${src.name}" not found`);
    }
    const all: Record<string, Buffer> = kind === 'configmaps'
      ? { ...Object.fromEntries(Object.entries((obj.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v)])), ...Object.fromEntries(Object.entries((obj.binaryData ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')])) }
      : Object.fromEntries(Object.entries((obj.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
    if (!src.items) return Object.fromEntries(Object.entries(all).map(([k, data]) => [k, { data, mode }]));
    const out: Payload = {};
    for (const i of src.items) {
      if (!(i.key in all)) {
        if (src.optional) continue;
        throw new VolumeError(`MountVolume.SetUp failed for volume "${volume}" : ${kind === 'configmaps' ? 'configmap references non-existent config key' : 'secret references non-existent secret key'}: ${i.key}`);
      }
      out[i.path] = { data: all[i.key]!, mode: i.mode ?? mode };
    }
    return out;
  }

  /** upstream's CollectData: each item's field of the pod or resource of one of its containers. */
  private downward(pod: KubeObject, volume: string, items: DownwardItem[] | undefined, mode: number): Payload {
    const value = (i: DownwardItem): string => {
      if (!i.resourceFieldRef) return fieldOf(pod, i.fieldRef?.fieldPath ?? '');
      try {
        return resourceFieldValue(selectedContainer(pod, i.resourceFieldRef), i.resourceFieldRef, this.node);
      } catch (e) {
        if (!(e instanceof ResourceFieldError)) throw e;
        throw new VolumeError(`MountVolume.SetUp failed for volume "${volume}" : ${e.message}`);
      }
    };
    return Object.fromEntries((items ?? []).map((i) => [i.path, { data: value(i), mode: i.mode ?? mode }]));
  }

  private async token(pod: KubeObject, volume: string, src: { path: string; audience?: string; expirationSeconds?: number }): Promise<string> {
    const key = `${pod.metadata!.uid}/${volume}/${src.path}`;
    const now = (this.o.now ?? Date.now)();
    const cached = this.tokens.get(key);
    if (cached && now < cached.renewAt) return cached.token;
    const expiration = src.expirationSeconds ?? 3607;
    const sa = (pod.spec?.serviceAccountName as string | undefined) ?? 'default';
    try {
      const token = await this.o.requestToken!(pod.metadata!.namespace!, sa, src.audience ? [src.audience] : undefined, expiration, pod);
      this.tokens.set(key, { token, renewAt: now + expiration * 800 });
      return token;
    } catch (e) {
      throw new VolumeError(`MountVolume.SetUp failed for volume "${volume}" : failed to fetch token: ${(e as Error).message}`);
    }
  }

  private async payload(pod: KubeObject, v: Volume, fsUser: number | undefined): Promise<Payload> {
    const ns = pod.metadata!.namespace!;
    if (v.configMap) return this.source('configmaps', ns, v.configMap, v.name, v.configMap.defaultMode ?? DEFAULT_MODE);
    if (v.secret) return this.source('secrets', ns, { ...v.secret, name: v.secret.secretName }, v.name, v.secret.defaultMode ?? DEFAULT_MODE);
    if (v.downwardAPI) return this.downward(pod, v.name, v.downwardAPI.items, v.downwardAPI.defaultMode ?? DEFAULT_MODE);
    const mode = v.projected?.defaultMode ?? DEFAULT_MODE;
    const files: Payload = {};
    for (const src of v.projected?.sources ?? []) {
      if (src.configMap) Object.assign(files, await this.source('configmaps', ns, src.configMap, v.name, mode));
      if (src.secret) Object.assign(files, await this.source('secrets', ns, src.secret, v.name, mode));
      if (src.downwardAPI) Object.assign(files, this.downward(pod, v.name, src.downwardAPI.items, mode));
      if (src.serviceAccountToken && this.o.requestToken) {
        // upstream's: with an fsUser or fsGroup the token is 0600 (the group reads it once the volume is the group's)
        const tokenMode = fsUser !== undefined || podFsGroup(pod) !== undefined ? 0o600 : mode;
        files[src.serviceAccountToken.path] = { data: await this.token(pod, v.name, src.serviceAccountToken), mode: tokenMode, ...(fsUser !== undefined ? { uid: fsUser } : {}) };
      }
    }
    return files;
  }
}

/** Whether a mount of the volume is read-only: asked by the mount or the claim; API data volumes always are, as upstream's. */
export const mountsReadOnly = (m: { readOnly?: boolean }, v: Volume | undefined): boolean =>
  m.readOnly === true || v?.persistentVolumeClaim?.readOnly === true || (v !== undefined && isProjection(v));

/**
 * Lays the container's mounts out under `rootfs` as symlinks to the volumes, and returns them as the runtime's
 * mounts (the host path each container path shows). The runtime binds them at their container paths where it can,
 * and binds the read-only ones read-only over themselves too, so that the links reach them read-only (a volume one
 * container mounts both ways is read-only through both links).
 */
export const linkMounts = async (
  rootfs: string, mounts: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[], volumes: Map<string, string>,
): Promise<Mount[]> => {
  await rm(rootfs, { recursive: true, force: true });
  await mkdir(rootfs, { recursive: true });
  const out: Mount[] = [];
  const points: MountPoint[] = [];
  for (const m of mounts) {
    const target = volumes.get(m.name);
    if (!target) continue;
    const link = join(rootfs, m.mountPath);
    await mkdir(dirname(link), { recursive: true });
    const source = m.subPath ? join(target, m.subPath) : target;
    // a link made inside another volume is recorded, to become the empty mount point runc leaves there
    const nested = await nestedMountPoint(rootfs, link);
    const point = async (copy: boolean): Promise<void> => {
      if (nested) points.push({ path: nested, source, dir: (await stat(source).catch(() => undefined))?.isDirectory() ?? true, copy });
    };
    // a subPath through the atomic writer's ..data link is pinned to today's content, as upstream's bind mount
    if (m.subPath && (await lstat(source).catch(() => undefined))?.isSymbolicLink() && (await lstat(join(target, '..data')).catch(() => undefined))) {
      await cp(await realpath(source), link, { recursive: true }).catch(() => undefined);
      await point(true);
      out.push({ containerPath: m.mountPath, hostPath: link, readOnly: m.readOnly === true });
      continue;
    }
    await symlink(source, link).catch(() => undefined);
    await point(false);
    out.push({ containerPath: m.mountPath, hostPath: source, readOnly: m.readOnly === true });
  }
  await recordMountPoints(rootfs, points);
  return out;
};
