import { describe, expect, it } from 'vitest';
import { chain } from './chain.js';
import type { AdmissionAttributes, AdmissionPlugin } from './interface.js';

const attrs = { operation: 'CREATE', resource: { group: '', version: 'v1', plural: 'configmaps' }, name: 'x', dryRun: false } as AdmissionAttributes;

const recorder = () => {
  const seen: string[] = [];
  const sync = (name: string): AdmissionPlugin => ({ name, admit: () => void seen.push(name), validate: () => void seen.push(`v:${name}`) });
  const waiting = (name: string): AdmissionPlugin => ({
    name,
    admit: () => new Promise<void>((r) => setTimeout(() => { seen.push(name); r(); }, 5)),
  });
  return { seen, sync, waiting };
};

describe('the admission chain', () => {
  it('answers at once, with no promise, when every plugin does', () => {
    const { seen, sync } = recorder();
    const a = chain([sync('a'), sync('b')]);
    expect(a.mutate(attrs)).toBeUndefined();
    expect(a.validate(attrs)).toBeUndefined();
    expect(seen).toEqual(['a', 'b', 'v:a', 'v:b']);
  });

  it('waits for a plugin that returns a promise before running the next ones, in order', async () => {
    const { seen, sync, waiting } = recorder();
    const a = chain([sync('a'), waiting('slow'), sync('b'), waiting('slow2'), sync('c')]);
    const r = a.mutate(attrs);
    expect(r).toBeInstanceOf(Promise);
    expect(seen).toEqual(['a']);
    await r;
    expect(seen).toEqual(['a', 'slow', 'b', 'slow2', 'c']);
  });

  it('stops at a plugin that refuses, whether at once or after waiting', async () => {
    const { seen, sync } = recorder();
    const refuseNow: AdmissionPlugin = { name: 'no', validate: () => { throw new Error('refused now'); } };
    expect(() => chain([sync('a'), refuseNow, sync('b')]).validate(attrs)).toThrow('refused now');
    expect(seen).toEqual(['v:a']);
    const refuseLater: AdmissionPlugin = { name: 'later', admit: () => Promise.reject(new Error('refused later')) };
    await expect(chain([refuseLater, sync('c')]).mutate(attrs)).rejects.toThrow('refused later');
    expect(seen).toEqual(['v:a']);
  });
});
