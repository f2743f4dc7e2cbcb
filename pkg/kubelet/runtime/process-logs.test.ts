import { describe, expect, it } from 'vitest';
import { formatCriLog } from './process.js';
import { nowNanos, rfc3339Nano } from './cri-time.js';

describe('formatCriLog', () => {
  it('shows a tty container\'s lines, which end in \\r, as containerd keeps them', () => {
    const text = '2026-01-01T00:00:00.1Z stdout F ttyout\r\n2026-01-01T00:00:01.1Z stdout P par\n2026-01-01T00:00:01.2Z stdout F tial\n';
    expect(formatCriLog(text)).toBe('ttyout\r\npartial\n');
    expect(formatCriLog(text, { tailLines: 1, timestamps: true })).toBe('2026-01-01T00:00:01.2Z partial\n');
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
});
