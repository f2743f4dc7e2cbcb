// Whether this kubelet can give pods sandboxes of their own: Linux, root, iproute2's `ip` and util-linux's
// `unshare` and `nsenter`, and a network namespace can actually be made (containers and some CI machines refuse).
import { existsSync } from 'node:fs';
import { access, constants, readdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { Logger } from 'pino';
import { Cgroups } from './cgroups.js';
import { parseCidr } from './cidr.js';
import { run } from '../../host/command.js';

const onPath = async (cmd: string): Promise<boolean> => {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try { await access(join(dir, cmd), constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
};

/** Why pod sandboxes are impossible here, or undefined when they are possible. */
export const sandboxesUnavailable = async (): Promise<string | undefined> => {
  if (process.platform !== 'linux') return `pod sandboxes need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'pod sandboxes need root (network namespaces, veth pairs, a bridge)';
  const missing: string[] = [];
  for (const [cmd, pkg] of [['ip', 'iproute2'], ['unshare', 'util-linux'], ['nsenter', 'util-linux']]) if (!(await onPath(cmd!))) missing.push(`${cmd!} (${pkg!})`);
  if (missing.length) return `pod sandboxes need ${missing.join(', ')} on the PATH`;
  const probe = `mk-probe-${process.pid}`;
  try {
    await run(['ip', 'netns', 'add', probe]);
  } catch (e) {
    return `cannot create a network namespace: ${(e as Error).message}`;
  }
  await run(['ip', 'netns', 'del', probe]).catch(() => undefined);
  await removeStaleProbes();
  return undefined;
};

/** Probe namespaces of kubelets killed while probing (their process is gone). */
const removeStaleProbes = async (): Promise<void> => {
  for (const m of (await readdir('/run/netns').catch(() => [] as string[])).map((n) => /^mk-probe-(\d+)$/.exec(n))) {
    if (m && !existsSync(`/proc/${m[1]}`)) await run(['ip', 'netns', 'del', m[0]]).catch(() => undefined);
  }
};

export type PodSandboxMode = 'auto' | 'netns' | 'host';

/**
 * What `--pod-sandbox` comes to: sandboxes (with cgroups when cgroup v2 is usable), or none. `auto` falls back to
 * the host network with one warning saying why; `netns` refuses to start instead.
 */
export const choosePodSandboxes = async (mode: PodSandboxMode, podCidr: string, logger: Logger): Promise<{ cgroups?: Cgroups } | undefined> => {
  if (mode === 'host') return undefined;
  if (podCidr) {
    try { parseCidr(podCidr); } catch (e) { throw new Error(`--pod-cidr: ${(e as Error).message}`); }
  }
  const why = await sandboxesUnavailable();
  if (why) {
    if (mode === 'netns') throw new Error(`--pod-sandbox=netns: ${why}`);
    logger.warn({ reason: why }, `pod sandboxes are off (${why}): pods share the host network and get the node's IP; run as root on Linux with iproute2 and util-linux for a network namespace per pod, or pass --pod-sandbox=host`);
    return undefined;
  }
  const cgroups = new Cgroups();
  const noCgroups = await cgroups.unavailable();
  if (noCgroups) logger.debug({ reason: noCgroups }, 'pods run without cgroup limits');
  logger.info({ podCidr: podCidr || 'the node\'s spec.podCIDR', cgroups: !noCgroups }, 'pods get sandboxes: a network namespace on the node bridge, PID/IPC/UTS namespaces');
  return noCgroups ? {} : { cgroups };
};
