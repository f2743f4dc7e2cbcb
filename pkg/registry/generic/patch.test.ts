// A merge patch decodes only the top-level fields it names; the rest stays the stored object's own.
import { describe, expect, it } from 'vitest';
import { create } from './create.js';
import { patchBuilder } from './patch.js';
import { testContext, withRegistries } from './testing.js';
import { update } from './update.js';

describe('merge patch', () => {
  it('decodes the fields it names (pruned, defaulted, checked), shares the others and keeps the stored key order', async () => {
    await withRegistries(async (regs) => {
    const ctx = testContext({ fieldValidation: 'Ignore' });
    const pods = regs.get('', 'v1', 'pods')!;
    const created = await create(pods, ctx, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const patch = { metadata: { labels: { a: 'b' } }, status: { phase: 'Running', bogus: 1, conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] } };
    const res = await update(pods, ctx, patchBuilder(pods, ctx, 'p', 'merge', patch, false, 'status'));
    const pod = res.object;
    expect(Object.keys(pod)).toEqual(Object.keys(created.object));
    // the patch's null removes lastProbeTime; Go's zero time is then written, null, as upstream serves it
    const ready = { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: null };
    expect(pod.status).toEqual({ phase: 'Running', qosClass: 'BestEffort', conditions: [ready] });
    expect(pod.spec).toEqual(created.object.spec);
    const bad = patchBuilder(pods, { ...ctx, fieldValidation: 'Strict' as const }, 'p', 'merge', { status: { bogus: 1 } }, false, 'status');
    await expect(update(pods, ctx, bad)).rejects.toThrow(/unknown field "status.bogus"/);
    await expect(update(pods, ctx, patchBuilder(pods, ctx, 'p', 'merge', { kind: 'Service' }, false))).rejects.toThrow(/does not match the expected kind/);
    });
  });
});
