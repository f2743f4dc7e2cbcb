// The shell the runtime's wrappers (cgroup entry, container root, read-only binds, cwd) run their few lines in before
// they exec the container's process. A wrapper must pass the container's environment on untouched, as runc does:
// dash (Debian's /bin/sh) drops variables whose names are not shell identifiers (an envFrom key such as `c.txt`),
// bash passes them on. So bash where the node has it (the path also names it inside a container root, which is the
// node's "/"), else sh, which loses only such names.
import { existsSync } from 'node:fs';

const BASH = ['/bin/bash', '/usr/bin/bash'];

/** The wrapper shell's absolute path (or `sh` when the node has no bash). */
export const WRAPPER_SHELL: string = BASH.find((p) => existsSync(p)) ?? 'sh';

/** argv running `script` in the wrapper shell, `$0` being `name`, then `args`. */
export const wrapperArgv = (script: string, name: string, ...args: string[]): string[] => [WRAPPER_SHELL, '-c', script, name, ...args];
