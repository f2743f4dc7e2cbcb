// A mount's subPath as upstream's makeMounts makes it: subPathExpr expanded with the container's environment
// (kubecontainer.ExpandContainerVolumeMounts), checked, and made in the volume when missing, with the volume's mode.
// Failures are CreateContainerConfigError in upstream's words.
import { chmod, lstat, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ContainerConfigError, expand } from '../env.js';

export interface SubPathMount { name: string; subPath?: string; subPathExpr?: string }

/** The mount's subPath ('' for none), its subPathExpr expanded; a variable unset or empty fails it. */
export function subPathOf(m: SubPathMount, env: { name: string; value: string }[]): string {
  let subPath = m.subPath ?? '';
  if (m.subPathExpr) {
    const vars = new Map(env.map((e) => [e.name, e.value]));
    const missing = new Set<string>();
    subPath = expand(m.subPathExpr, (name) => {
      const value = vars.get(name) ?? '';
      if (!value) missing.add(name);
      return value;
    });
    if (missing.size) throw new ContainerConfigError(`missing value for ${[...missing].sort().join(', ')}`);
  }
  if (!subPath) return '';
  if (subPath.startsWith('/')) throw new ContainerConfigError(`error SubPath \`${subPath}\` must not be an absolute path`);
  if (subPath.split('/').includes('..')) throw new ContainerConfigError(`unable to provision SubPath \`${subPath}\`: must not contain '..'`);
  return subPath;
}

/**
 * The subPath's directories made in the volume where missing, each with the volume's own permissions (upstream's
 * SafeMakeDir: a directory the runtime made later would be 0755, and not writable by an fsGroup).
 */
export async function makeSubPath(volumePath: string, subPath: string, mount: string, container: string): Promise<void> {
  if (await stat(join(volumePath, subPath)).then(() => true, () => false)) return;
  try {
    const mode = (await stat(volumePath)).mode & 0o777;
    let dir = volumePath;
    for (const part of subPath.split('/').filter((p) => p && p !== '.')) {
      dir = join(dir, part);
      if (await lstat(dir).then(() => true, () => false)) continue;
      await mkdir(dir, { mode });
      await chmod(dir, mode);
    }
  } catch {
    throw new ContainerConfigError(`failed to create subPath directory for volumeMount ${JSON.stringify(mount)} of container ${JSON.stringify(container)}`);
  }
}
