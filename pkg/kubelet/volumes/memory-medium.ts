// emptyDir volumes of medium Memory as upstream's emptydir plugin sets them up: a tmpfs on the node at the volume's
// directory, sized (SizeMemoryBackedVolumes, GA) as the least of the node's allocatable memory, the pod's memory
// limit (when every container declares one) and the volume's sizeLimit. Mounting takes root; without it the volume
// stays a directory on the node's disk. Its tmpfs is unmounted when the pod's volumes are torn down (pod-dir.ts).
import { parseQuantity, quantityValue } from '../../apimachinery/quantity.js';
import type { KubeObject } from '../../client/index.js';
import { isMountPoint, run } from './mounts.js';

interface LimitedContainer { resources?: { limits?: Record<string, string> }; restartPolicy?: string }

const bytes = (q: string | undefined): number => (q === undefined ? 0 : quantityValue(parseQuantity(q)));

/**
 * The pod's memory limit as its cgroup gets it (upstream's ResourceConfigForPod): the containers' and sidecars' sum,
 * or an init container's own when larger; undefined when a container has none.
 */
export const podMemoryLimit = (pod: KubeObject): number | undefined => {
  const containers = (pod.spec?.containers ?? []) as LimitedContainer[];
  const inits = (pod.spec?.initContainers ?? []) as LimitedContainer[];
  if ([...containers, ...inits].some((c) => !(bytes(c.resources?.limits?.memory) > 0))) return undefined;
  const sum = (cs: LimitedContainer[]): number => cs.reduce((n, c) => n + bytes(c.resources?.limits?.memory), 0);
  const sidecars = inits.filter((c) => c.restartPolicy === 'Always');
  return Math.max(sum(containers) + sum(sidecars), ...inits.filter((c) => c.restartPolicy !== 'Always').map((c) => bytes(c.resources?.limits?.memory)));
};

/** The tmpfs size of a memory-backed emptyDir, in bytes (upstream's calculateEmptyDirMemorySize). */
export const memoryMediumSize = (pod: KubeObject, sizeLimit: string | undefined, nodeMemory: string): number => {
  let size = bytes(nodeMemory);
  for (const bound of [podMemoryLimit(pod), bytes(sizeLimit)]) if (bound !== undefined && bound > 0 && bound <= size) size = bound;
  return size;
};

/** Mounts a tmpfs of `size` bytes at `dir` unless one is there already (a kubelet restarted). */
export async function mountMemoryMedium(dir: string, size: number): Promise<void> {
  if (await isMountPoint(dir)) return;
  await run('mount', ['-t', 'tmpfs', '-o', size > 0 ? `size=${size}` : 'defaults', 'tmpfs', dir]);
}
