// A container's termination message, as upstream's kuberuntime reads it (getTerminationMessage,
// readLastStringFromContainerLogs): what the container wrote to its terminationMessagePath, a file of its own on the
// node mounted there (its last 4 KiB); with terminationMessagePolicy FallbackToLogsOnError, when it wrote nothing
// and failed, the end of its log (80 lines, at most 2 KiB).
import { chmod, mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Mount, Runtime } from './runtime/types.js';

const DEFAULT_PATH = '/dev/termination-log';
const MAX_FILE_BYTES = 4096;
const MAX_LOG_LINES = 80;
const MAX_LOG_BYTES = 2048;

export interface TerminationSpec { name: string; terminationMessagePath?: string; terminationMessagePolicy?: string }

const fileOf = (podDir: string, container: string, attempt: number): string => join(podDir, 'containers', container, `${attempt}.termination-log`);

/**
 * Makes the attempt's empty file (writable by any user the container runs as) and links it under `rootfs`, where a
 * container without a root of its own finds its mounts; returns the mount that puts it at the container's path.
 */
export async function terminationMount(podDir: string, rootfs: string, spec: TerminationSpec, attempt: number): Promise<Mount> {
  const hostPath = fileOf(podDir, spec.name, attempt);
  await mkdir(dirname(hostPath), { recursive: true });
  await writeFile(hostPath, '');
  await chmod(hostPath, 0o666); // past the umask
  const containerPath = spec.terminationMessagePath || DEFAULT_PATH;
  const link = join(rootfs, containerPath);
  await mkdir(dirname(link), { recursive: true });
  await symlink(hostPath, link).catch(() => undefined);
  return { containerPath, hostPath };
}

/** The last `max` bytes of a file ('' when it is missing). */
async function tail(path: string, max: number): Promise<string> {
  const f = await open(path, 'r').catch(() => undefined);
  if (!f) return '';
  try {
    const { size } = await f.stat();
    const length = Math.min(size, max);
    const buf = Buffer.alloc(length);
    await f.read(buf, 0, length, size - length);
    return buf.toString('utf8');
  } finally {
    await f.close();
  }
}

/** The message of an exited container: what it wrote, else (FallbackToLogsOnError and a failure) its log's end. */
export async function terminationMessage(runtime: Runtime, podDir: string, spec: TerminationSpec, c: { id: string; attempt: number; exitCode?: number; reason?: string }): Promise<string> {
  const written = await tail(fileOf(podDir, spec.name, c.attempt), MAX_FILE_BYTES);
  // a container that could not even start has no log to fall back to
  if (written || spec.terminationMessagePolicy !== 'FallbackToLogsOnError' || !c.exitCode || c.reason === 'ContainerCannotRun') return written;
  const { text } = await runtime.logs(c.id, { tailLines: MAX_LOG_LINES }).catch(() => ({ text: '' }));
  const bytes = Buffer.from(text);
  return bytes.length > MAX_LOG_BYTES ? bytes.subarray(bytes.length - MAX_LOG_BYTES).toString('utf8') : text;
}
