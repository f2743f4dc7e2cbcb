// Where this package is installed: the same from cmd/*.ts (tests) and dist/cmd/*.js (the installed binary).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const findRoot = (): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'mini-kube') return dir;
    if (dirname(dir) === dir) throw new Error('cannot find the mini-kube package.json above ' + fileURLToPath(import.meta.url));
  }
};

export const packageRoot = findRoot();

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** The bundled entry that child processes run (build/bundle.ts): node starts it without a TypeScript loader. */
export const bundledMain = join(packageRoot, 'dist', 'bin', 'mini-kube.mjs');

export const compiledMain = (): string => {
  const main = bundledMain;
  if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);
  return main;
};
