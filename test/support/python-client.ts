// The Python `kubernetes` client (Debian's python3-kubernetes; .ci/run installs it): whether it is there, and a
// script run with it.
import { execFile, execFileSync } from 'node:child_process';

const PYTHON = '/usr/bin/python3';

export const hasPythonClient = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** What `script` printed; rejects with its stdout and stderr when it fails or outlives `timeoutMs`. */
export const runPython = (script: string, args: string[], timeoutMs = 60_000): Promise<string> => new Promise((resolve, reject) => {
  execFile(PYTHON, ['-c', script, ...args], { timeout: timeoutMs }, (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${out}\n${errOut}`)) : resolve(out)));
});
