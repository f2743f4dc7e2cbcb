// What the process runtime keeps on disk so that a kubelet restarting on the same root dir finds its sandboxes and
// containers again (containerd's metadata store, in a few JSON files): <dir>/sandboxes/<id>.json, and per container
// <dir>/containers/<id>/ with container.json (written here) beside the shim's spec.json, pid.json and exit.json.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PodSandbox } from '../sandbox/pod-sandbox.js';
import { EXIT_FILE, writeStateFile, type ShimExit } from './shim-protocol.js';
import type { ContainerConfig, SandboxStatus } from './types.js';

/** What a container is, as created (its state comes from its shim). */
export interface ContainerRecord {
  id: string;
  sandboxId: string;
  podUid: string;
  name: string;
  attempt: number;
  image: string;
  imageRef: string;
  createdAt: number;
  config: ContainerConfig;
  logPath: string;
  env: Record<string, string>;
  cwd: string;
  /** Its cgroup (sandboxed pods where cgroup v2 is usable). */
  cgroup?: string;
  /** The host directory its own root is mounted on, in its mount namespace (container-root.ts), when it has one. */
  root?: string;
}

export interface SandboxRecord { status: SandboxStatus; pod?: PodSandbox }

const CONTAINER_FILE = 'container.json';

const readJson = <T>(path: string): T | undefined => {
  try { return JSON.parse(readFileSync(path, 'utf8')) as T; } catch { return undefined; }
};

export class RuntimeState {
  constructor(private readonly dir: string) {
    mkdirSync(join(dir, 'sandboxes'), { recursive: true });
    mkdirSync(join(dir, 'containers'), { recursive: true });
  }

  containerDir(id: string): string { return join(this.dir, 'containers', id); }

  sandboxes(): SandboxRecord[] {
    return readdirSync(join(this.dir, 'sandboxes')).filter((f) => f.endsWith('.json'))
      .map((f) => readJson<SandboxRecord>(join(this.dir, 'sandboxes', f))).filter((r): r is SandboxRecord => r !== undefined);
  }

  /** The recorded containers; a directory without a readable record (a crash while creating) is dropped. */
  containers(): ContainerRecord[] {
    const out: ContainerRecord[] = [];
    for (const id of readdirSync(join(this.dir, 'containers'))) {
      const rec = readJson<ContainerRecord>(join(this.containerDir(id), CONTAINER_FILE));
      if (rec) out.push(rec); else rmSync(this.containerDir(id), { recursive: true, force: true });
    }
    return out;
  }

  saveSandbox(status: SandboxStatus, pod?: PodSandbox): void {
    writeStateFile(join(this.dir, 'sandboxes'), `${status.id}.json`, { status, ...(pod ? { pod } : {}) } satisfies SandboxRecord);
  }

  removeSandbox(id: string): void { rmSync(join(this.dir, 'sandboxes', `${id}.json`), { force: true }); }

  saveContainer(c: ContainerRecord): void {
    const { id, sandboxId, podUid, name, attempt, image, imageRef, createdAt, config, logPath, env, cwd, cgroup } = c;
    mkdirSync(this.containerDir(id), { recursive: true });
    writeStateFile(this.containerDir(id), CONTAINER_FILE, { id, sandboxId, podUid, name, attempt, image, imageRef, createdAt, config, logPath, env, cwd, cgroup } satisfies ContainerRecord);
  }

  /** An exit the runtime decided itself (a start refused before any shim ran). */
  saveExit(id: string, exit: ShimExit): void { writeStateFile(this.containerDir(id), EXIT_FILE, exit); }

  removeContainer(id: string): Promise<void> { return rm(this.containerDir(id), { recursive: true, force: true }); }
}
