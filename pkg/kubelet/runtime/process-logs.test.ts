import { describe, expect, it } from 'vitest';
import { formatCriLog } from './process.js';

describe('formatCriLog', () => {
  it('shows a tty container\'s lines, which end in \\r, as containerd keeps them', () => {
    const text = '2026-01-01T00:00:00.1Z stdout F ttyout\r\n2026-01-01T00:00:01.1Z stdout P par\n2026-01-01T00:00:01.2Z stdout F tial\n';
    expect(formatCriLog(text)).toBe('ttyout\r\npartial\n');
    expect(formatCriLog(text, { tailLines: 1, timestamps: true })).toBe('2026-01-01T00:00:01.2Z partial\n');
  });
});
