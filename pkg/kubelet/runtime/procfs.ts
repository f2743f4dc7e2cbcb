// Processes by pid, for what outlives the kubelet (shims, pause processes): after a restart there is no
// ChildProcess to wait on, only /proc.
import { readFileSync } from 'node:fs';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether a process is there and not a zombie (a kubelet restart leaves no parent relation to ask instead). */
export const processAlive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) [ZX]/s.test(stat);
  } catch {
    try { process.kill(pid, 0); return true; } catch { return false; }
  }
};

/** Waits until the process is gone (or `ms` passed). */
export const waitGone = async (pid: number, ms: number): Promise<void> => {
  const deadline = Date.now() + ms;
  while (processAlive(pid) && Date.now() < deadline) await sleep(10);
};
