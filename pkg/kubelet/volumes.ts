// Pod volumes for the process runtime, materialised under <root>/pods/<uid>/volumes/<name> as upstream's volume
// plugins do: emptyDir, configMap, secret, downwardAPI, projected (configMap, secret, downwardAPI,
// serviceAccountToken via TokenRequest) and hostPath. A container sees its mounts as symlinks under
// $MINI_KUBE_ROOTFS/<mountPath> (no mount namespaces). A missing ConfigMap or Secret that is not optional is a
// VolumeError: the pod waits (FailedMount) as upstream's does.
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isNotFound, type KubeObject } from '../client/index.js';
import type { ObjectGetter } from './env.js';

export class VolumeError extends Error {
  override name = 'VolumeError';
}

export type TokenRequester = (namespace: string, serviceAccount: string, audiences: string[] | undefined, expirationSeconds: number, pod: KubeObject) => Promise<string>;

interface KeyToPath { key: string; path: string; mode?: number }
interface DownwardItem { path: string; fieldRef?: { fieldPath: string } }
interface Volume {
  name: string;
  emptyDir?: unknown;
  hostPath?: { path: string };
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { secretName: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardItem[] };
  projected?: { sources?: { configMap?: Volume['configMap']; secret?: { name: string; items?: KeyToPath[]; optional?: boolean }; downwardAPI?: Volume['downwardAPI']; serviceAccountToken?: { path: string; audience?: string; expirationSeconds?: number } }[] };
}

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

const writeFiles = async (dir: string, files: Record<string, string | Buffer>): Promise<void> => {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
};

export const setUpVolumes = async (
  pod: KubeObject, podDir: string, o: { get: ObjectGetter; requestToken?: TokenRequester },
): Promise<Map<string, string>> => {
  const ns = pod.metadata!.namespace!;
  const paths = new Map<string, string>();
  const data = async (kind: 'configmaps' | 'secrets', name: string, optional: boolean | undefined, volume: string): Promise<Record<string, string | Buffer> | undefined> => {
    let obj: KubeObject | undefined;
    try { obj = await o.get(kind, ns, name); } catch (e) { if (!isNotFound(e)) throw e; }
    if (!obj) {
      if (optional) return undefined;
      throw new VolumeError(`MountVolume.SetUp failed for volume "${volume}" : ${kind === 'configmaps' ? 'configmap' : 'secret'} "${name}" not found`);
    }
    if (kind === 'configmaps') return { ...((obj.data ?? {}) as Record<string, string>), ...Object.fromEntries(Object.entries((obj.binaryData ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')])) };
    return Object.fromEntries(Object.entries((obj.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
  };
  const pick = (all: Record<string, string | Buffer>, items?: KeyToPath[]): Record<string, string | Buffer> =>
    (items ? Object.fromEntries(items.filter((i) => i.key in all).map((i) => [i.path, all[i.key]!])) : all);
  for (const v of (pod.spec?.volumes ?? []) as Volume[]) {
    if (v.hostPath) { paths.set(v.name, v.hostPath.path); continue; }
    const dir = join(podDir, 'volumes', v.name);
    paths.set(v.name, dir);
    if (v.emptyDir) { await mkdir(dir, { recursive: true }); continue; }
    const files: Record<string, string | Buffer> = {};
    if (v.configMap) Object.assign(files, pick((await data('configmaps', v.configMap.name, v.configMap.optional, v.name)) ?? {}, v.configMap.items));
    if (v.secret) Object.assign(files, pick((await data('secrets', v.secret.secretName, v.secret.optional, v.name)) ?? {}, v.secret.items));
    if (v.downwardAPI) for (const i of v.downwardAPI.items ?? []) files[i.path] = fieldOf(pod, i.fieldRef?.fieldPath ?? '');
    for (const src of v.projected?.sources ?? []) {
      if (src.configMap) Object.assign(files, pick((await data('configmaps', src.configMap.name, src.configMap.optional, v.name)) ?? {}, src.configMap.items));
      if (src.secret) Object.assign(files, pick((await data('secrets', src.secret.name, src.secret.optional, v.name)) ?? {}, src.secret.items));
      if (src.downwardAPI) for (const i of src.downwardAPI.items ?? []) files[i.path] = fieldOf(pod, i.fieldRef?.fieldPath ?? '');
      if (src.serviceAccountToken && o.requestToken) {
        const sa = (pod.spec?.serviceAccountName as string | undefined) ?? 'default';
        try {
          files[src.serviceAccountToken.path] = await o.requestToken(ns, sa, src.serviceAccountToken.audience ? [src.serviceAccountToken.audience] : undefined, src.serviceAccountToken.expirationSeconds ?? 3607, pod);
        } catch (e) {
          throw new VolumeError(`MountVolume.SetUp failed for volume "${v.name}" : failed to fetch token: ${(e as Error).message}`);
        }
      }
    }
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFiles(dir, files);
  }
  return paths;
};

/** The container's view of its mounts: symlinks under `rootfs` (returned), one per volumeMount. */
export const linkMounts = async (rootfs: string, mounts: { name: string; mountPath: string; subPath?: string }[], volumes: Map<string, string>): Promise<void> => {
  await rm(rootfs, { recursive: true, force: true });
  await mkdir(rootfs, { recursive: true });
  for (const m of mounts) {
    const target = volumes.get(m.name);
    if (!target) continue;
    const link = join(rootfs, m.mountPath);
    await mkdir(dirname(link), { recursive: true });
    await symlink(m.subPath ? join(target, m.subPath) : target, link).catch(() => undefined);
  }
};
