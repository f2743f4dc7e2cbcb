// Host commands (iproute2, unshare, mount) run by the kubelet's sandboxes and the service proxy.
import { execFile } from 'node:child_process';

export class CommandError extends Error {
  constructor(readonly argv: string[], readonly stderr: string) {
    super(`${argv.join(' ')}: ${stderr.trim() || 'failed'}`);
  }
}

/** Runs a host command (with `input` on its stdin); rejects with its stderr. */
export const run = (argv: string[], input?: string, timeoutMs = 10_000): Promise<string> => new Promise((resolve, reject) => {
  const child = execFile(argv[0]!, argv.slice(1), { timeout: timeoutMs }, (err, stdout, stderr) => {
    if (err) reject(new CommandError(argv, stderr || err.message)); else resolve(stdout);
  });
  child.stdin?.on('error', () => undefined); // EPIPE: the command exited without reading its input
  child.stdin?.end(input);
});

/** The command failed because what it creates is there already. */
export const exists = (e: unknown): boolean => e instanceof CommandError && /File exists|already exists|already assigned/i.test(e.stderr);
/** The command failed because what it changes is not there. */
export const gone = (e: unknown): boolean => e instanceof CommandError && /No such file|Cannot find device|does not exist|not found|Cannot assign/i.test(e.stderr);
