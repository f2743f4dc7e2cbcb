// The Service ClusterIP range of an `up` cluster. Where the proxy makes ClusterIPs addresses of the host (root on
// Linux), two clusters on one machine with the same range would share 10.96.0.1 and 10.96.0.10: the second one's
// proxy could not listen there, and its pods would reach the first cluster's apiserver and DNS. So a new cluster
// takes the first range that no host interface holds an address of and no running `up` has claimed, and its data
// dir keeps it (Services already hold addresses from it): 10.96.0.0/12 (the apiserver's default) first, then the
// next /12s up to 10.224.0.0/12, below the pods' 10.244.0.0/16.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { contains, formatCidr, intToIp, ipToInt, parseIpv4Cidr } from '../pkg/apimachinery/ipv4.js';

export const DEFAULT_SERVICE_RANGE = '10.96.0.0/12';
export const SERVICE_RANGES = [DEFAULT_SERVICE_RANGE, ...[112, 128, 144, 160, 176, 192, 208, 224].map((b) => `10.${b}.0.0/12`)];
/** Where a data dir keeps its range. */
export const RANGE_FILE = 'service-cluster-ip-range';

/** The kubernetes Service's ClusterIP: the first address of the range, as the apiserver takes it. */
export const kubernetesServiceIp = (range: string): string => intToIp(parseIpv4Cidr(range).network + 1);
/** kube-dns's ClusterIP: the 10th address of the range, as kubeadm places it. */
export const clusterDnsIp = (range: string): string => intToIp(parseIpv4Cidr(range).network + 10);

export interface RangeClaims {
  /** The range each running cluster claimed (claims of processes that are gone excluded). */
  live(): Promise<Map<string, { pid: number; dataDir: string }>>;
  /** Held while this process lives: a claim of a process that is gone counts for nothing. */
  claim(range: string, dataDir: string): Promise<void>;
}

/** Claims as files in a host-wide directory (/run/mini-kube/service-ranges), one per range, naming the `up` process. */
export const fileClaims = (dir: string): RangeClaims => {
  const file = (range: string): string => join(dir, range.replace('/', '_'));
  const alive = (pid: number): boolean => {
    try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
  };
  return {
    async live() {
      const out = new Map<string, { pid: number; dataDir: string }>();
      for (const range of SERVICE_RANGES) {
        const text = await readFile(file(range), 'utf8').catch(() => undefined);
        if (!text) continue;
        try {
          const c = JSON.parse(text) as { pid: number; dataDir: string };
          if (c.pid !== process.pid && alive(c.pid)) out.set(range, c);
        } catch { /* a torn claim is no claim */ }
      }
      return out;
    },
    async claim(range, dataDir) {
      await mkdir(dir, { recursive: true });
      await writeFile(file(range), JSON.stringify({ pid: process.pid, dataDir }));
    },
  };
};

/** Every IPv4 address of the host's interfaces but those on `ownLink` (this cluster's own ClusterIPs from a last run). */
export const hostAddresses = (ownLink: string): number[] =>
  Object.entries(networkInterfaces()).flatMap(([name, list]) => (name === ownLink ? [] : (list ?? [])))
    .filter((a) => a.family === 'IPv4').map((a) => ipToInt(a.address));

export interface ChosenRange {
  range: string;
  /** Why the range may still collide with another cluster's, for a warning. */
  warning?: string;
}

/**
 * The data dir's recorded range, else for a data dir with a store already (made before ranges were recorded) the
 * default, else the first free one; recorded and claimed for this process either way.
 */
export async function chooseServiceRange(dataDir: string, claims: RangeClaims, addresses: number[]): Promise<ChosenRange> {
  const recorded = (await readFile(join(dataDir, RANGE_FILE), 'utf8').catch(() => '')).trim();
  const live = await claims.live();
  const used = (range: string): string | undefined => {
    const other = live.get(range);
    if (other && other.dataDir !== dataDir) return `the cluster of ${other.dataDir} (process ${other.pid}) uses it`;
    const cidr = parseIpv4Cidr(range);
    const held = addresses.find((a) => contains(cidr, a));
    return held === undefined ? undefined : `the host has ${intToIp(held)} on an interface`;
  };
  const kept = (range: string): ChosenRange => {
    const why = used(range);
    return { range, warning: why && `this cluster's Service range ${range} is in use (${why}): its ClusterIPs may reach the other cluster's Services` };
  };
  let chosen: ChosenRange;
  if (recorded) {
    let cidr: string;
    try { cidr = formatCidr(parseIpv4Cidr(recorded)); } catch {
      throw new Error(`${join(dataDir, RANGE_FILE)} holds "${recorded}", not an IPv4 CIDR: write the cluster's Service range there (10.96.0.0/12 unless it was given another)`);
    }
    chosen = kept(cidr);
  }
  else if (existsSync(join(dataDir, 'store'))) chosen = kept(DEFAULT_SERVICE_RANGE);
  else {
    const free = SERVICE_RANGES.find((r) => !used(r));
    chosen = free ? { range: free } : { range: DEFAULT_SERVICE_RANGE, warning: `every Service range up uses (${SERVICE_RANGES.join(', ')}) is taken by other clusters: ClusterIPs may reach their Services` };
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, RANGE_FILE), `${chosen.range}\n`);
  await claims.claim(chosen.range, dataDir);
  return chosen;
}
