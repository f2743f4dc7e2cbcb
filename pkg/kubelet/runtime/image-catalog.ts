// The process runtime's image catalog (config/images.json): what an image runs when the pod gives no command, as
// an image's ENTRYPOINT/CMD/ENV/USER would (a builtin program, or a host command such as busybox's `sh`). An image
// outside it is simulated: nothing is known of it, so it is taken for one whose ENTRYPOINT idles (the pause program:
// args given alone are the unknown entrypoint's, not a command) and whose USER is numeric and not root (65532,
// distroless' `nonroot`, as the images of operators declare one), so that runAsNonRoot does not refuse it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeImage } from './types.js';

/** `user`: the image's numeric USER, its primary group the same (root, 0, when absent). */
export interface CatalogEntry { builtin?: string; entrypoint?: string[]; cmd?: string[]; env?: string[]; user?: number }
export type ImageCatalog = Record<string, CatalogEntry>;

const DEFAULT_CATALOG: ImageCatalog = {
  pause: { builtin: 'pause' }, 'registry.k8s.io/pause': { builtin: 'pause' }, busybox: { cmd: ['sh'] }, nginx: { builtin: 'nginx' },
};

/** config/images.json next to the sources or the compiled tree, else the built-in default. */
export const loadImageCatalog = (path?: string): ImageCatalog => {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = path ? [path] : [join(here, '../../../config/images.json'), join(here, '../../../../config/images.json')];
  for (const p of candidates) {
    if (!existsSync(p)) continue;
    const parsed = JSON.parse(readFileSync(p, 'utf8')) as { images?: ImageCatalog };
    return parsed.images ?? {};
  }
  if (path) throw new Error(`image catalog ${path} not found`);
  return DEFAULT_CATALOG;
};

/** The catalog key of an image: its repository without registry docker.io/library and without tag or digest. */
export const imageRepository = (image: string): string =>
  normalizeImage(image).replace(/@.*$/, '').replace(/:[^:/]*$/, '').replace(/^docker\.io\/library\//, '').replace(/^docker\.io\//, '');

/** The user of a simulated image: distroless' `nonroot` (65532:65532). */
export const SIMULATED_USER = 65532;

/** The image's user and primary group (CRI ImageStatus' uid), undefined for root's. */
export const imageUser = (catalog: ImageCatalog, image: string): { uid: number; gid: number } | undefined => {
  const uid = Object.hasOwn(catalog, imageRepository(image)) ? catalog[imageRepository(image)]!.user : SIMULATED_USER;
  return uid ? { uid, gid: uid } : undefined;
};

/**
 * What a container runs, as containerd's CRI makes it of the kubelet's command and args (kuberuntime passes them as
 * the pod says, $(VAR)s expanded) and the image's config: a command replaces the ENTRYPOINT and drops the CMD, args
 * replace the CMD (an empty list is none). A builtin program's argv is `program(name)`, to which arguments are appended.
 */
export const imageArgv = (catalog: ImageCatalog, image: string, c: { command?: string[]; args?: string[] }, program: (builtin: string) => string[]): string[] => {
  const entry = Object.hasOwn(catalog, imageRepository(image)) ? catalog[imageRepository(image)]! : { builtin: 'pause' };
  const argv = c.command?.length
    ? [...c.command, ...(c.args ?? [])]
    : [...(entry.builtin ? program(entry.builtin) : entry.entrypoint ?? []), ...(c.args?.length ? c.args : entry.cmd ?? [])];
  if (!argv.length) throw new Error('no command specified');
  return argv;
};
