// Reading a container's CRI log file ("<RFC3339Nano> stdout|stderr F|P <payload>" lines) as `kubectl logs` shows
// it: whole, or, for a follower, from where it stopped. A follower reads only what was appended (not the file again
// every round), up to the last complete line; when the file was rotated away (log-manager.ts) it gets the rest of
// the rotated file, then the new one from its start.
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { normalizeCriTime } from './cri-time.js';
import type { LogChunk, LogCursor, LogOptions } from './types.js';

const LINE = /^(\S+) (stdout|stderr) ([FP]) ?(.*)$/s;

/** CRI log text as `kubectl logs` shows it: the payloads, with timestamps if asked, the last N lines, since a time. */
export const formatCriLog = (text: string, o: LogOptions = {}): string => {
  const out: string[] = [];
  let partial = '';
  for (const line of text.split('\n')) {
    // `s`: a tty container's lines end in \r (its pty writes \r\n), which `.` alone does not match; kept, as containerd does
    const m = LINE.exec(line);
    if (!m) continue;
    const [, ts, , tag, payload] = m;
    if (o.sinceMs !== undefined && Date.parse(ts!) < o.sinceMs) continue;
    if (tag === 'P') { partial += payload; continue; }
    out.push(`${o.timestamps ? `${normalizeCriTime(ts!)} ` : ''}${partial}${payload}\n`);
    partial = '';
  }
  return (o.tailLines !== undefined ? (o.tailLines <= 0 ? [] : out.slice(-o.tailLines)) : out).join('');
};

/** The length of `buf` up to the end of its last full line (a partial line's parts stay together for the next read). */
function completeLength(buf: Buffer): number {
  let end = buf.lastIndexOf(0x0a) + 1;
  while (end > 0) {
    const start = buf.lastIndexOf(0x0a, end - 2) + 1;
    if (LINE.exec(buf.subarray(start, end - 1).toString('utf8'))?.[3] !== 'P') return end;
    end = start;
  }
  return 0;
}

/** What `fh` holds from `from` on: the formatted complete lines and the offset after them. */
async function readFrom(fh: FileHandle, size: number, from: number, o: LogOptions): Promise<{ text: string; end: number }> {
  const buf = Buffer.alloc(Math.max(0, size - from));
  const { bytesRead } = await fh.read(buf, 0, buf.length, from);
  const used = completeLength(buf.subarray(0, bytesRead));
  return { text: formatCriLog(buf.subarray(0, used).toString('utf8'), o), end: from + used };
}

/** The rest of the file a cursor was reading, now rotated to `<path>.<time>` (uncompressed: the latest rotation). */
async function rotatedRemainder(path: string, cursor: LogCursor, o: LogOptions): Promise<string> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix) || name.endsWith('.gz')) continue;
    const fh = await open(join(dir, name), 'r').catch(() => undefined);
    if (!fh) continue;
    try {
      const st = await fh.stat();
      if (st.ino === cursor.file) return (await readFrom(fh, st.size, cursor.offset, o)).text;
    } finally {
      await fh.close();
    }
  }
  return '';
}

/**
 * The log at `path` as `o` asks; from `cursor` on, only what was written since (tailLines applies to whole reads): the
 * rest of a file rotated away since, then the new file from its start.
 */
export async function readCriLog(path: string, o: LogOptions = {}, cursor?: LogCursor): Promise<LogChunk> {
  const fh = await open(path, 'r').catch(() => undefined);
  if (!fh) return { text: '', cursor: cursor ?? { file: 0, offset: 0 } };
  try {
    const st = await fh.stat();
    const same = cursor !== undefined && cursor.file === st.ino && cursor.offset <= st.size;
    const opts = cursor ? { ...o, tailLines: undefined } : o;
    const before = cursor && !same && cursor.file ? await rotatedRemainder(path, cursor, opts) : '';
    const { text, end } = await readFrom(fh, st.size, same ? cursor.offset : 0, opts);
    return { text: before + text, cursor: { file: st.ino, offset: end } };
  } finally {
    await fh.close();
  }
}
