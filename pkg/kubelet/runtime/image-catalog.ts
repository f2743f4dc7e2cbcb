// The process runtime's image catalog (config/images.json): what an image runs when the pod gives no command, as
// an image's ENTRYPOINT/CMD/ENV would (a builtin program, or a host command such as busybox's `sh`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeImage } from './types.js';

export interface CatalogEntry { builtin?: string; entrypoint?: string[]; cmd?: string[]; env?: string[] }
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
