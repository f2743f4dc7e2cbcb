// FailedScheduling's note within the events API's 1024-character limit, as upstream's truncateMessage.
import { describe, expect, it } from 'vitest';
import { truncateNote } from './scheduler.js';

describe('truncateNote', () => {
  it('keeps a note of up to 1024 characters, and cuts a longer one to 1020 and " ..."', () => {
    expect(truncateNote('x'.repeat(1024))).toBe('x'.repeat(1024));
    const cut = truncateNote(`${'y'.repeat(1020)}zzzzz`);
    expect(cut).toBe(`${'y'.repeat(1020)} ...`);
    expect(cut).toHaveLength(1024);
  });
});
