// Server processes under test: spawn, time to first good /readyz, resident memory, stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

export interface Tls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  origin: string;
  /** Milliseconds from spawn to the first 200 from /readyz. */
  readyMs: number;
  /** The last lines the process wrote to stderr (for failures). */
  stderrTail(): string;
  stop(): Promise<void>;
}

export { freePort } from '../../pkg/host/free-port.js';

/**
 * Spawns `node <args>` and polls https://127.0.0.1:<port>/readyz every 5 ms until it answers 200.
 * `tls` may be a function: with a fresh data dir the client certificate only exists once the server made it.
 */
export async function startServer(name: string, nodeArgs: string[], port: number, tls: () => Promise<Tls | undefined>, timeoutMs = 60_000): Promise<ServerProcess> {
  const started = performance.now();
  // BENCH_CHILD_STDOUT=<file> keeps what the child prints (--trace-gc from BENCH_NODE_FLAGS, say) in that file.
  const out = process.env.BENCH_CHILD_STDOUT ? openSync(process.env.BENCH_CHILD_STDOUT, 'a') : 'ignore';
  const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', out, 'pipe'] });
  let tail = '';
  child.stderr!.on('data', (d: Buffer) => {
    tail = (tail + d.toString('utf8')).slice(-8192);
  });
  let exited: string | undefined;
  const exitPromise = new Promise<void>((resolve) => child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
    resolve();
  }));
  const origin = `https://127.0.0.1:${port}`;
  let agent: Agent | undefined;
  let readyMs = -1;
  try {
    while (readyMs < 0) {
      if (exited) throw new Error(`${name} ${exited} before it was ready:\n${tail}`);
      if (performance.now() - started > timeoutMs) throw new Error(`${name} not ready after ${timeoutMs} ms:\n${tail}`);
      if (!agent) {
        const t = await tls();
        if (t) agent = new Agent({ connect: { ...t, rejectUnauthorized: true } });
      }
      if (agent) {
        try {
          const res = await request(`${origin}/readyz`, { dispatcher: agent });
          const body = await res.body.text();
          if (res.statusCode === 200 && body === 'ok') readyMs = performance.now() - started;
        } catch (e) {
          // Refused: not listening yet. Anything else (a certificate read while half written): start over.
          if ((e as { code?: string }).code !== 'ECONNREFUSED') {
            await agent.destroy();
            agent = undefined;
          }
        }
      }
      if (readyMs < 0) await sleep(5);
    }
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    await agent?.destroy();
  }
  return {
    name, child, pid: child.pid!, origin, readyMs,
    stderrTail: () => tail,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exitPromise;
      clearTimeout(killer);
    },
  };
}

/** Resident set size (VmRSS) and its peak (VmHWM) of a process, in MB. */
export async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export async function readTls(pkiDir: string): Promise<Tls | undefined> {
  try {
    const [ca, cert, key] = await Promise.all(['ca.crt', 'admin.crt', 'admin.key'].map((f) => readFile(`${pkiDir}/${f}`)));
    return { ca: ca!, cert: cert!, key: key! };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in seconds (clock ticks of 10 ms, as Linux reports them). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
