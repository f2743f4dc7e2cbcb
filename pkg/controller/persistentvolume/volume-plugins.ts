// What the in-tree volume plugins of kube-controller-manager's PersistentVolume controller do when a volume is
// reclaimed (upstream cmd/kube-controller-manager/app/plugins.go ProbeControllerVolumePlugins: host-path, nfs, local
// and csi). host-path deletes a directory matching /tmp/.+ (pkg/volume/hostpath, "for testing only") and, as nfs,
// recycles with a scrubbing pod; local and csi do neither. The controller-manager runs on this machine, so the
// host-path deleter removes the directory from here, as upstream's does from its own host.
import { rm } from 'node:fs/promises';
import { parseQuantity } from '../../apimachinery/quantity.js';
import type { KubeObject } from '../../client/index.js';
import { ANN_PROVISIONED_BY } from './matching.js';

export const HOST_PATH_PLUGIN = 'kubernetes.io/host-path';
export const ANN_MIGRATED_TO = 'pv.kubernetes.io/migrated-to';

interface Plugin { name: string; deletable: boolean; recycler?: { minimumTimeout: number; timeoutIncrement: number } }

// the recycler timeouts are upstream's --pv-recycler-{minimum,increment}-timeout-{hostpath,nfs} defaults
const PLUGINS: Record<string, Plugin> = {
  hostPath: { name: HOST_PATH_PLUGIN, deletable: true, recycler: { minimumTimeout: 60, timeoutIncrement: 30 } },
  nfs: { name: 'kubernetes.io/nfs', deletable: false, recycler: { minimumTimeout: 300, timeoutIncrement: 30 } },
  local: { name: 'kubernetes.io/local-volume', deletable: false },
  csi: { name: 'kubernetes.io/csi', deletable: false },
};

const byName = (name: string): Plugin | undefined => Object.values(PLUGINS).find((p) => p.name === name);

/** FindPluginBySpec: the plugin of the volume's source. */
function bySpec(pv: KubeObject): Plugin {
  const source = Object.keys(PLUGINS).find((k) => pv.spec?.[k]);
  if (!source) throw new Error('no volume plugin matched');
  return PLUGINS[source]!;
}

export type Deleter = () => Promise<void>;

/**
 * findDeletablePlugin and NewDeleter: the deleter of a volume, undefined when an external one is expected (a
 * provisioner outside kubernetes.io/, a CSI or migrated volume); throws what upstream reports as VolumeFailedDelete.
 */
export function findDeleter(pv: KubeObject): Deleter | undefined {
  const name = pv.metadata!.name!;
  const provisionedBy = pv.metadata?.annotations?.[ANN_PROVISIONED_BY];
  let plugin: Plugin;
  if (provisionedBy) {
    const p = byName(provisionedBy);
    if (!p) {
      if (!provisionedBy.startsWith('kubernetes.io/')) return undefined;
      throw new Error(`no volume plugin matched name: ${provisionedBy}`);
    }
    if (!p.deletable) throw new Error('no deletable volume plugin matched');
    plugin = p;
  } else {
    if (pv.metadata?.annotations?.[ANN_MIGRATED_TO] || pv.spec?.csi) return undefined;
    try {
      plugin = bySpec(pv);
      if (!plugin.deletable) throw new Error('no deletable volume plugin matched');
    } catch (e) {
      throw new Error(`error getting deleter volume plugin for volume "${name}": ${(e as Error).message}`);
    }
  }
  // host-path is the only deletable one
  const path = pv.spec?.hostPath?.path as string | undefined;
  if (path === undefined) throw new Error(`failed to create deleter for volume "${name}": spec.PersistentVolumeSource.HostPath is nil`);
  return () => deleteHostPath(path);
}

/** Go's text for the errnos removing a directory may meet. */
const ERRNO_TEXT: Record<string, string> = {
  EACCES: 'permission denied', EPERM: 'operation not permitted', EBUSY: 'device or resource busy',
  EROFS: 'read-only file system', ENOTEMPTY: 'directory not empty', EIO: 'input/output error',
};

/** hostPathDeleter.Delete: only a path matching /tmp/.+ (unanchored, as upstream's regexp), removed as os.RemoveAll. */
export async function deleteHostPath(path: string): Promise<void> {
  if (!/\/tmp\/.+/.test(path)) throw new Error(`host_path deleter only supports /tmp/.+ but received provided ${path}`);
  // os.RemoveAll refuses a path whose last element is "."; validation already refuses ".." elements
  if (path === '.' || path.endsWith('/.')) throw new Error(`RemoveAll ${path}: invalid argument`);
  try {
    await rm(path, { recursive: true, force: true });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const text = err.code ? ERRNO_TEXT[err.code] : undefined;
    throw new Error(text ? `unlinkat ${err.path ?? path}: ${text}` : err.message);
  }
}

/** The recycler pod upstream's NewPersistentVolumeRecyclerPodTemplate makes (1.32's image), for a volume source. */
export const RECYCLER_IMAGE = 'registry.k8s.io/build-image/debian-base:bookworm-v1.0.4';

/** CalculateTimeoutForVolume: the increment per whole Gi of capacity, at least the minimum (seconds). */
export function recyclerTimeout(minimum: number, increment: number, pv: KubeObject): number {
  const storage = pv.spec?.capacity?.storage as string | undefined;
  const nanos = storage ? parseQuantity(storage).nanos : 0n;
  const bytes = nanos / 1_000_000_000n + (nanos % 1_000_000_000n > 0n ? 1n : 0n);
  const timeout = Number(bytes / (1n << 30n)) * increment;
  return Math.max(timeout, minimum);
}

/**
 * The pod that scrubs a released volume (hostPath and nfs plugins' Recycle), named recycler-for-<volume> in default;
 * undefined when no plugin recycles the volume's source.
 */
export function recyclerPod(pv: KubeObject): KubeObject | undefined {
  let plugin: Plugin;
  try {
    plugin = bySpec(pv);
  } catch {
    return undefined;
  }
  if (!plugin.recycler) return undefined;
  const source = pv.spec?.hostPath
    ? { hostPath: { path: pv.spec.hostPath.path } }
    : { nfs: { server: pv.spec?.nfs?.server, path: pv.spec?.nfs?.path } };
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `recycler-for-${pv.metadata!.name}`, namespace: 'default' },
    spec: {
      activeDeadlineSeconds: recyclerTimeout(plugin.recycler.minimumTimeout, plugin.recycler.timeoutIncrement, pv),
      restartPolicy: 'Never',
      volumes: [{ name: 'vol', ...source }],
      containers: [{
        name: 'pv-recycler', image: RECYCLER_IMAGE, command: ['/bin/sh'],
        args: ['-c', 'test -e /scrub && find /scrub -mindepth 1 -delete && test -z "$(ls -A /scrub)" || exit 1'],
        volumeMounts: [{ name: 'vol', mountPath: '/scrub' }],
      }],
    },
  };
}
