// Pod shapes the plugins share: every container with its field path (upstream: pods.VisitContainersWithPath).
import type { KubeObject } from '../../api/types.js';

export type Container = Record<string, any> & { name: string };

export const CONTAINER_KINDS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Each container of a pod spec with its path (`spec.containers[0]`), init containers first, as upstream visits them. */
export function containersWithPath(spec: KubeObject | undefined, base = 'spec'): Array<{ c: Container; path: string; kind: typeof CONTAINER_KINDS[number] }> {
  const out: Array<{ c: Container; path: string; kind: typeof CONTAINER_KINDS[number] }> = [];
  for (const kind of CONTAINER_KINDS) {
    const list = spec?.[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((c: Container, i: number) => out.push({ c, path: `${base}.${kind}[${i}]`, kind }));
  }
  return out;
}

export const isPodCreateOrUpdate = (resource: { group: string; plural: string }, subresource: string | undefined): boolean =>
  resource.group === '' && resource.plural === 'pods' && !subresource;
