import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { formatCriLog, readCriLog } from './cri-log.js';
import { nowNanos, rfc3339Nano } from './cri-time.js';

describe('formatCriLog', () => {
  it('shows a tty container\'s lines, which end in \\r, as containerd keeps them', () => {
    const text = '2026-01-01T00:00:00.1Z stdout F ttyout\r\n2026-01-01T00:00:01.1Z stdout P par\n2026-01-01T00:00:01.2Z stdout F tial\n';
    expect(formatCriLog(text)).toBe('ttyout\r\npartial\n');
    expect(formatCriLog(text, { tailLines: 1, timestamps: true })).toBe('2026-01-01T00:00:01.2Z partial\n');
  });
});

describe('readCriLog', () => {
  it('reads what was appended since a cursor, complete lines only, and a rotated file anew', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cri-log-'));
    try {
      const path = join(dir, '0.log');
      const line = (n: number, tag = 'F', text = `line ${n}`): string => `2026-01-01T00:00:0${n}Z stdout ${tag} ${text}\n`;
      await writeFile(path, line(1) + line(2) + line(3));
      const first = await readCriLog(path, { tailLines: 2 });
      expect(first.text).toBe('line 2\nline 3\n');
      // a follower gets the new lines only; the tail applied to the first read
      await appendFile(path, line(4) + line(5, 'P', 'half '));
      const second = await readCriLog(path, { tailLines: 2 }, first.cursor);
      expect(second.text).toBe('line 4\n');
      // a partial line waits for its end, and a line still being written for its newline
      await appendFile(path, `${line(6, 'F', 'whole')}2026-01-01T00:00:07Z stdout F unfini`);
      const third = await readCriLog(path, {}, second.cursor);
      expect(third.text).toBe('half whole\n');
      await appendFile(path, 'shed\n');
      expect((await readCriLog(path, { timestamps: true }, third.cursor)).text).toBe('2026-01-01T00:00:07Z unfinished\n');
      // rotated away: the rest of the rotated file, then the new file at the path from its start
      const fourth = await readCriLog(path, {}, third.cursor);
      await appendFile(path, line(8));
      await rename(path, `${path}.20260101-000000`);
      await writeFile(path, line(9));
      expect((await readCriLog(path, {}, fourth.cursor)).text).toBe('line 8\nline 9\n');
      expect((await readCriLog(join(dir, 'none.log'))).text).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('CRI log timestamps', () => {
  it('are Go\'s RFC3339Nano: nanoseconds without trailing zeros, no dot when none are left', () => {
    expect(rfc3339Nano(1_767_225_600_123_450_000n)).toBe('2026-01-01T00:00:00.12345Z');
    expect(rfc3339Nano(1_767_225_600_000_000_000n)).toBe('2026-01-01T00:00:00Z');
    expect(rfc3339Nano(1_767_225_600_000_000_007n)).toBe('2026-01-01T00:00:00.000000007Z');
    // what an older shim wrote (milliseconds padded to nine digits) is printed the same way
    expect(formatCriLog('2026-01-01T00:00:00.120000000Z stdout F old\n', { timestamps: true })).toBe('2026-01-01T00:00:00.12Z old\n');
  });

  it('follow the wall clock and never go back', () => {
    const a = nowNanos();
    const b = nowNanos();
    expect(b >= a).toBe(true);
    expect(Math.abs(Number(a / 1_000_000n) - Date.now())).toBeLessThan(1_000);
  });

  it('follow the wall clock when it steps away from the monotonic one, and still never go back', () => {
    const start = Date.now();
    const now = vi.spyOn(Date, 'now');
    try {
      now.mockReturnValue(start + 3_183); // the guest was suspended, or NTP stepped the clock forward
      const ahead = nowNanos();
      expect(ahead / 1_000_000n).toBe(BigInt(start + 3_183));
      now.mockReturnValue(start - 5_000); // and then back
      const back = nowNanos();
      expect(back > ahead).toBe(true);
      expect(back - ahead < 1_000_000n).toBe(true);
    } finally {
      now.mockRestore();
    }
  });
});
