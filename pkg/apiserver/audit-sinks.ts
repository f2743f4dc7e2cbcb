// Where audit events go (upstream's audit backends, apiserver/plugin/pkg/audit): the log backend (--audit-log-path,
// "-" for stdout; --audit-log-format json or legacy; rotated as lumberjack rotates it: past --audit-log-maxsize MB
// (default 100) the file is renamed <name>-<UTC time><ext>, --audit-log-maxbackup backups kept (0: all) and none older
// than --audit-log-maxage days (0: any age)), and the webhook backend (--audit-webhook-config-file, a kubeconfig:
// audit.k8s.io/v1 EventLists POSTed in order, batched in batch mode — at --audit-webhook-batch-max-size events or
// after --audit-webhook-batch-max-wait — or one event per POST in blocking mode).
import { createWriteStream, existsSync, openSync, readdirSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Logger } from 'pino';
import { webhookClient, type WebhookClient } from '../authentication/webhook-client.js';

export type AuditEvent = Record<string, unknown>;

export interface AuditSink {
  write(ev: AuditEvent): void;
  close(): Promise<void>;
}

export interface LogSinkOptions {
  path: string;
  format?: 'json' | 'legacy';
  maxSizeMb?: number;
  maxBackups?: number;
  maxAgeDays?: number;
}

const q = (s: unknown): string => JSON.stringify(String(s ?? ''));

/** Go's RFC3339Nano: the fraction without trailing zeros. */
const rfc3339Nano = (micro: unknown): string => String(micro ?? '').replace(/\.(\d*?)0*Z$/, (_m, f: string) => (f ? `.${f}Z` : 'Z'));

/** Upstream's legacy one-line form of an event (audit.EventString). */
export function legacyLine(ev: AuditEvent): string {
  const user = (ev.user ?? {}) as { username?: string; groups?: string[] };
  const as = ev.impersonatedUser as { username?: string; groups?: string[] } | undefined;
  const list = (groups: string[]): string => groups.map((g) => JSON.stringify(g)).join(',');
  const groups = user.username && user.groups?.length ? list(user.groups) : '<none>';
  const ref = ev.objectRef as { namespace?: string } | undefined;
  const status = ev.responseStatus as { code?: number } | undefined;
  const ips = ev.sourceIPs as string[] | undefined;
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ips?.[0] ?? '<unknown>')} method=${q(ev.verb)}`
    + ` user=${q(user.username || '<none>')} groups=${q(groups)} as=${q(as ? as.username : '<self>')} asgroups=${q(as?.groups ? list(as.groups) : '<lookup>')}`
    + ` user-agent=${q(ev.userAgent)} namespace=${q(ref?.namespace || '<none>')} uri=${q(ev.requestURI)} response="${status ? String(status.code ?? 0) : '<deferred>'}"`;
}

/** lumberjack's backup name: <name>-2006-01-02T15-04-05.000<ext>, in UTC (a millisecond later if taken). */
const backupName = (path: string, at: number): string => {
  const ext = extname(path);
  for (let t = at; ; t++) {
    const name = join(dirname(path), `${basename(path, ext)}-${new Date(t).toISOString().replace(/:/g, '-').replace('Z', '')}${ext}`);
    if (!existsSync(name)) return name;
  }
};

export function logSink(o: LogSinkOptions): AuditSink {
  const format = o.format === 'legacy' ? legacyLine : (ev: AuditEvent) => JSON.stringify(ev);
  if (o.path === '-') {
    return { write: (ev) => { process.stdout.write(`${format(ev)}\n`); }, close: async () => {} };
  }
  const maxBytes = (o.maxSizeMb && o.maxSizeMb > 0 ? o.maxSizeMb : 100) * 1024 * 1024;
  // opened at once (a stream opens its file later), so that a rotation right away finds the file to rename
  const open = (): WriteStream => createWriteStream('', { fd: openSync(o.path, 'a') });
  let out = open();
  let size = (() => { try { return statSync(o.path).size; } catch { return 0; } })();

  const prune = (): void => {
    const ext = extname(o.path);
    const prefix = `${basename(o.path, ext)}-`;
    const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3})${ext.replace('.', '\\.')}$`);
    const backups = readdirSync(dirname(o.path)).map((f) => ({ f, m: pattern.exec(f) })).filter((b) => b.m)
      .map((b) => ({ file: join(dirname(o.path), b.f), at: Date.parse(`${b.m![1]!.replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3')}Z`) }))
      .sort((a, b) => b.at - a.at);
    const cutoff = o.maxAgeDays && o.maxAgeDays > 0 ? Date.now() - o.maxAgeDays * 86_400_000 : -Infinity;
    backups.forEach((b, i) => {
      if ((o.maxBackups && o.maxBackups > 0 && i >= o.maxBackups) || b.at < cutoff) rmSync(b.file, { force: true });
    });
  };

  /** The file is renamed under the open stream, so what it still has to write lands in the backup. */
  const rotate = (): void => {
    renameSync(o.path, backupName(o.path, Date.now()));
    out.end();
    out = open();
    size = 0;
    prune();
  };

  return {
    write(ev) {
      const line = `${format(ev)}\n`;
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      size += bytes;
      out.write(line);
    },
    close: () => new Promise((resolve) => out.end(resolve)),
  };
}

export interface WebhookSinkOptions {
  configFile: string;
  mode?: 'batch' | 'blocking';
  batchMaxSize?: number;
  batchMaxWaitMs?: number;
  logger: Logger;
}

export async function webhookSink(o: WebhookSinkOptions): Promise<AuditSink> {
  const client: WebhookClient = await webhookClient(o.configFile, 'audit');
  const maxSize = o.mode === 'blocking' ? 1 : o.batchMaxSize ?? 400;
  const maxWait = o.batchMaxWaitMs ?? 30_000;
  let buffer: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();

  // one POST at a time, in order; a failed batch is logged and dropped (upstream retries, then drops)
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!buffer.length) return;
    const items = buffer;
    buffer = [];
    sending = sending.then(() => client.post({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items }))
      .then(() => undefined, (err: unknown) => o.logger.warn({ err, events: items.length }, 'the audit webhook refused a batch; its events are lost'));
  };

  return {
    write(ev) {
      buffer.push(ev);
      if (buffer.length >= maxSize) flush();
      else timer ??= setTimeout(flush, maxWait).unref();
    },
    async close() {
      flush();
      await sending;
      await client.close();
    },
  };
}
