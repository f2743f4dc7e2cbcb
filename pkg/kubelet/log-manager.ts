// The container log manager (upstream pkg/kubelet/logs/container_log_manager.go). Every monitoring period (10 s),
// the log of each running container that has grown to containerLogMaxSize is rotated: renamed to
// `<log>.<YYYYMMDD-hhmmss>` and the runtime asked to reopen it (CRI ReopenContainerLog). Before that, older rotated
// files are gzipped and the oldest removed, so that the live log, the latest rotated one (left as it is: a reader may
// still be on it) and the compressed ones number at most containerLogMaxFiles. Without it a chatty container of the
// process runtime filled the disk.
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Logger } from 'pino';
import type { Clock } from '../client/index.js';
import type { Runtime } from './runtime/types.js';

const COMPRESSED = '.gz';
const TEMPORARY = '.tmp';

/** Upstream's containerLogMaxSize (10Mi; negative: no rotation), containerLogMaxFiles (5), containerLogMonitorInterval (10 s). */
export interface ContainerLogOptions {
  containerLogMaxSizeBytes?: number;
  containerLogMaxFiles?: number;
  containerLogMonitorMs?: number;
}

export const DEFAULT_CONTAINER_LOG_MAX_SIZE = 10 * 1024 * 1024;
export const DEFAULT_CONTAINER_LOG_MAX_FILES = 5;

const pad = (n: number): string => String(n).padStart(2, '0');
/** Go's "20060102-150405", in the node's local time. */
const rotationStamp = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
};

export class ContainerLogManager {
  private readonly maxSize: number;
  private readonly maxFiles: number;

  constructor(private readonly o: { runtime: Runtime; clock: Clock; logger: Logger } & ContainerLogOptions) {
    this.maxSize = o.containerLogMaxSizeBytes ?? DEFAULT_CONTAINER_LOG_MAX_SIZE;
    this.maxFiles = o.containerLogMaxFiles ?? DEFAULT_CONTAINER_LOG_MAX_FILES;
    if (this.maxFiles <= 1) throw new Error(`invalid MaxFiles ${this.maxFiles}, must be > 1`);
  }

  async run(signal: AbortSignal): Promise<void> {
    if (this.maxSize < 0) return;
    while (!signal.aborted) {
      await this.rotateLogs();
      await this.o.clock.sleep(this.o.containerLogMonitorMs ?? 10_000, signal).catch(() => undefined);
    }
  }

  /** One round over the running containers (rotating only a live log: a finished container writes no more). */
  async rotateLogs(): Promise<void> {
    const { runtime } = this.o;
    for (const c of runtime.listContainers()) {
      const path = c.state === 'running' ? runtime.logPath?.(c.id) : undefined;
      if (!path) continue;
      await this.rotateIfNeeded(c.id, path).catch((err: unknown) => this.o.logger.warn({ err, containerID: c.id, path }, 'cannot rotate the container log'));
    }
  }

  private async rotateIfNeeded(id: string, path: string): Promise<void> {
    let size = (await stat(path).catch(() => undefined))?.size;
    if (size === undefined) {
      // gone (a rotation whose reopen failed, say): the container writes to a new one
      await this.o.runtime.reopenContainerLog!(id);
      size = (await stat(path)).size;
    }
    if (size < this.maxSize) return;
    const dir = dirname(path);
    const prefix = `${basename(path)}.`;
    let rotated = (await readdir(dir)).filter((f) => f.startsWith(prefix)).map((f) => join(dir, f));
    rotated = await this.dropUnused(rotated);
    rotated = await this.dropExcess(rotated);
    for (const f of rotated) if (!f.endsWith(COMPRESSED)) await compress(f);
    const target = `${path}.${rotationStamp(this.o.clock.now())}`;
    await rename(path, target);
    try {
      await this.o.runtime.reopenContainerLog!(id);
    } catch (err) {
      await rename(target, path); // tried again next round
      throw err;
    }
  }

  /** Leftovers of an interrupted round: temporary files, and files already compressed next to their .gz. */
  private async dropUnused(files: string[]): Promise<string[]> {
    const kept: string[] = [];
    for (const f of files) {
      if (f.endsWith(TEMPORARY) || (!f.endsWith(COMPRESSED) && files.includes(f + COMPRESSED))) await rm(f, { force: true });
      else kept.push(f);
    }
    return kept;
  }

  /** The oldest rotated files beyond maxFiles − 2 (the live log and the one rotated now are the other two). */
  private async dropExcess(files: string[]): Promise<string[]> {
    const sorted = [...files].sort();
    const excess = Math.max(0, sorted.length - Math.max(0, this.maxFiles - 2));
    for (const f of sorted.slice(0, excess)) await rm(f, { force: true });
    return sorted.slice(excess);
  }
}

/** Gzips `file` to `file.gz` (through a temporary file) and removes it. */
async function compress(file: string): Promise<void> {
  const tmp = `${file}${TEMPORARY}`;
  try {
    await pipeline(createReadStream(file), createGzip(), createWriteStream(tmp));
    await rename(tmp, `${file}${COMPRESSED}`);
    await rm(file, { force: true });
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Upstream's removeContainer: the container's log and its rotated files go first (its log manager's Clean), then
 * the container; a container that starts later under the same name and attempt writes a new log, not onto the old.
 */
export async function removeContainerAndLogs(runtime: Runtime, id: string): Promise<void> {
  const path = runtime.logPath?.(id);
  if (path) {
    const dir = dirname(path);
    const name = basename(path);
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (f === name || f.startsWith(`${name}.`)) await rm(join(dir, f), { force: true });
    }
  }
  await runtime.removeContainer(id);
}
