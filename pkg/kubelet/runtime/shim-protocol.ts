// What the process runtime and a container's shim (shim.ts) share: the files of a container's state directory and
// the frames spoken on the shim's Unix socket. A frame is one type byte, a 4-byte big-endian length and the payload.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the runtime asks the shim to run (spec.json in the state directory). */
export interface ShimSpec {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** The CRI log file the shim appends the container's output to. */
  logPath: string;
  /** The Unix socket the shim serves (output to every client, stdin from them). */
  socket: string;
  /** Keep the container's stdin open for clients (spec stdin). */
  stdin: boolean;
  /** Run the container on a pseudo-terminal (spec tty). */
  tty: boolean;
  /**
   * The container's command sets it up before it execs the container's own (its root: container-root.ts) and writes
   * a byte to fd 3 then: it has started at that byte, as a runc container starts once its init is set up.
   */
  startedByte?: boolean;
}

/** Written by the shim once the container runs (pid.json). */
export interface ShimStarted { shimPid: number; pid: number; startedAt: number }

/** Written by the shim when the container exits or cannot start (exit.json). */
export interface ShimExit { exitCode: number; signal?: string; finishedAt: number; startError?: string }

export const SPEC_FILE = 'spec.json';
export const STARTED_FILE = 'pid.json';
export const EXIT_FILE = 'exit.json';

/** containerd's message for a command that is not there (runc's, wrapped by the shim's and the task's). */
export const notFoundMessage = (cmd: string): string =>
  `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "${cmd}": executable file not found in $PATH: unknown`;

/**
 * Frame types: shim to client (started, stdout, stderr, exit, logReopened) and client to shim (stdin, end of stdin,
 * reopenLog: write to a new file at the log path, the old one having been rotated away).
 */
export const Frame = { started: 0x53, stdout: 0x4f, stderr: 0x45, exit: 0x58, stdin: 0x49, stdinEnd: 0x43, reopenLog: 0x52, logReopened: 0x72 } as const;

export const frame = (type: number, payload: Buffer | string = Buffer.alloc(0)): Buffer => {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
};

/** Splits a byte stream into frames, calling `on` for each complete one. */
export const frameReader = (on: (type: number, payload: Buffer) => void): ((chunk: Buffer) => void) => {
  let buf: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    while (buf.length >= 5) {
      const len = buf.readUInt32BE(1);
      if (buf.length < 5 + len) break;
      on(buf[0]!, buf.subarray(5, 5 + len));
      buf = buf.subarray(5 + len);
    }
  };
};

/** Writes a state file whole or not at all (a reader after a crash never sees half of it). */
export const writeStateFile = (dir: string, name: string, value: unknown): void => {
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify(value));
  renameSync(tmp, join(dir, name));
};
