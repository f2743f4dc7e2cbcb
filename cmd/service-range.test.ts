import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipToInt } from '../pkg/apimachinery/ipv4.js';
import { chooseServiceRange, clusterDnsIp, fileClaims, RANGE_FILE, SERVICE_RANGES, type RangeClaims } from './service-range.js';

/** Claims held in memory: `others` are the live claims of other clusters. */
const memoryClaims = (others: Record<string, string> = {}): RangeClaims & { mine: string[] } => {
  const mine: string[] = [];
  return {
    mine,
    live: () => Promise.resolve(new Map(Object.entries(others).map(([range, dataDir]) => [range, { pid: 1, dataDir }]))),
    claim: (range) => { mine.push(range); return Promise.resolve(); },
  };
};

describe('the Service range of an up cluster', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'mk-range-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is the default on a machine without another cluster, recorded in the data dir and claimed', async () => {
    const claims = memoryClaims();
    const got = await chooseServiceRange(join(dir, 'a'), claims, [ipToInt('192.0.2.2'), ipToInt('10.244.0.1')]);
    expect(got).toEqual({ range: '10.96.0.0/12' });
    expect((await readFile(join(dir, 'a', RANGE_FILE), 'utf8')).trim()).toBe('10.96.0.0/12');
    expect(claims.mine).toEqual(['10.96.0.0/12']);
    expect(clusterDnsIp(got.range)).toBe('10.96.0.10');
  });

  it('is the next free /12 when another cluster holds ClusterIPs of the default or has claimed it', async () => {
    expect(await chooseServiceRange(join(dir, 'b'), memoryClaims(), [ipToInt('10.96.0.1')])).toEqual({ range: '10.112.0.0/12' });
    expect(await chooseServiceRange(join(dir, 'c'), memoryClaims({ '10.96.0.0/12': '/x', '10.112.0.0/12': '/y' }), [])).toEqual({ range: '10.128.0.0/12' });
    expect(clusterDnsIp('10.112.0.0/12')).toBe('10.112.0.10');
  });

  it('stays what the data dir recorded, with a warning when another cluster uses it now', async () => {
    await mkdir(join(dir, 'd'));
    await writeFile(join(dir, 'd', RANGE_FILE), '10.112.0.0/12\n');
    expect(await chooseServiceRange(join(dir, 'd'), memoryClaims(), [])).toEqual({ range: '10.112.0.0/12' });
    const got = await chooseServiceRange(join(dir, 'd'), memoryClaims({ '10.112.0.0/12': '/other' }), []);
    expect(got.range).toBe('10.112.0.0/12');
    expect(got.warning).toMatch(/10\.112\.0\.0\/12 is in use \(the cluster of \/other \(process 1\) uses it\)/);
    // a claim of this data dir is the last run of this very cluster, still stopping
    expect(await chooseServiceRange(join(dir, 'd'), memoryClaims({ '10.112.0.0/12': join(dir, 'd') }), [])).toEqual({ range: '10.112.0.0/12' });
  });

  it('refuses a record that is not a CIDR, saying where it is', async () => {
    await mkdir(join(dir, 'g'));
    await writeFile(join(dir, 'g', RANGE_FILE), 'ten-ninety-six\n');
    await expect(chooseServiceRange(join(dir, 'g'), memoryClaims(), [])).rejects.toThrow(/service-cluster-ip-range holds "ten-ninety-six", not an IPv4 CIDR/);
  });

  it('is the default for a data dir made before ranges were recorded (its Services hold addresses of it)', async () => {
    await mkdir(join(dir, 'e', 'store'), { recursive: true });
    expect(await chooseServiceRange(join(dir, 'e'), memoryClaims(), [])).toEqual({ range: '10.96.0.0/12' });
    const taken = await chooseServiceRange(join(dir, 'e'), memoryClaims(), [ipToInt('10.96.0.1')]);
    expect(taken.warning).toMatch(/the host has 10\.96\.0\.1 on an interface/);
  });

  it('warns when every range is taken', async () => {
    const got = await chooseServiceRange(join(dir, 'f'), memoryClaims(Object.fromEntries(SERVICE_RANGES.map((r) => [r, '/x']))), []);
    expect(got.range).toBe('10.96.0.0/12');
    expect(got.warning).toMatch(/every Service range/);
  });

  it('claims as files count only while their process lives', async () => {
    const claims = fileClaims(join(dir, 'claims'));
    await claims.claim('10.96.0.0/12', '/mine');
    expect((await claims.live()).size).toBe(0); // this process's own claim is no other cluster's
    await writeFile(join(dir, 'claims', '10.112.0.0_12'), JSON.stringify({ pid: process.ppid, dataDir: '/parent' }));
    await writeFile(join(dir, 'claims', '10.128.0.0_12'), JSON.stringify({ pid: 2 ** 22 + 7, dataDir: '/gone' }));
    expect([...(await claims.live()).entries()]).toEqual([['10.112.0.0/12', { pid: process.ppid, dataDir: '/parent' }]]);
  });
});
