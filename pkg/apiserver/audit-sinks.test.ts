import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { legacyLine, logSink } from './audit-sinks.js';

const dirs: string[] = [];
afterAll(async () => { await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))); });
const tempDir = async (): Promise<string> => { const d = await mkdtemp(join(tmpdir(), 'mini-kube-audit-')); dirs.push(d); return d; };

const event = (i: number) => ({
  kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: `id-${i}`, stage: 'ResponseComplete', requestURI: '/api/v1/pods', verb: 'list',
  user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] }, sourceIPs: ['127.0.0.1'], userAgent: 'kubectl/v1.32.0',
  responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: '2026-11-22T15:04:05.120000Z', pad: 'x'.repeat(1000),
});

describe('audit log backend', () => {
  it('writes upstream\'s legacy lines', () => {
    expect(legacyLine({ ...event(1), objectRef: { resource: 'pods', namespace: 'default' } })).toBe(
      '2026-11-22T15:04:05.12Z AUDIT: id="id-1" stage="ResponseComplete" ip="127.0.0.1" method="list" user="admin" '
      + 'groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.32.0" '
      + 'namespace="default" uri="/api/v1/pods" response="200"');
    expect(legacyLine({ auditID: 'x', stage: 'RequestReceived', verb: 'get', user: {}, requestReceivedTimestamp: '2026-11-22T15:04:05.000000Z' }))
      .toBe('2026-11-22T15:04:05Z AUDIT: id="x" stage="RequestReceived" ip="<unknown>" method="get" user="<none>" groups="<none>" as="<self>" asgroups="<lookup>" user-agent="" namespace="<none>" uri="" response="<deferred>"');
  });

  it('rotates past maxsize into timestamped backups, keeping maxbackup and none older than maxage', async () => {
    const dir = await tempDir();
    const path = join(dir, 'audit.log');
    await writeFile(join(dir, 'audit-2020-01-01T00-00-00.000.log'), 'ancient\n');
    const sink = logSink({ path, maxSizeMb: 1, maxBackups: 2, maxAgeDays: 30 });
    for (let i = 0; i < 3_500; i++) sink.write(event(i)); // ~3.7 MB: three rotations
    await sink.close();
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(3);
    expect(files.filter((f) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f))).toHaveLength(2);
    expect(files).toContain('audit.log');
    const lines = await Promise.all(files.map(async (f) => (await readFile(join(dir, f), 'utf8')).trim().split('\n')));
    for (const l of lines) expect(Buffer.byteLength(l.join('\n'))).toBeLessThanOrEqual(1024 * 1024);
    // the newest events are in audit.log, in order, none lost between the files kept
    const current = lines[files.indexOf('audit.log')]!.map((l) => (JSON.parse(l) as { auditID: string }).auditID);
    expect(current.at(-1)).toBe('id-3499');
    const kept = lines.flat().map((l) => Number((JSON.parse(l) as { auditID: string }).auditID.slice(3))).sort((a, b) => a - b);
    expect(kept.at(-1)! - kept[0]! + 1).toBe(kept.length);
  });
});
