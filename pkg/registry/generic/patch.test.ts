// A merge patch decodes only the top-level fields it names; the rest stays the stored object's own.
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../apimachinery/errors.js';
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
    await expect(update(pods, ctx, patchBuilder(pods, ctx, 'p', 'merge', { kind: 'Service' }, false))).rejects.toThrow('Service in version "v1" cannot be handled as a Pod: converting (v1.Service) to (core.Pod): unknown conversion');
    });
  });
});

describe('a patched object that does not decode', () => {
  const refusal = (e: unknown): [number, string] => (e instanceof StatusError ? [e.code, e.message] : [0, String(e)]);
  const bad = { status: { conditions: [{ type: 'example.com/Custom', status: 'True', lastTransitionTime: 'notatime' }] } };
  const parseError = 'parsing time "notatime" as "2006-01-02T15:04:05Z07:00": cannot parse "notatime" as "2006"';

  it('is a 422 on the field "patch", quoting what the patch made: the patched JSON, or a strategic patch as Go prints it', async () => {
    await withRegistries(async (regs) => {
      const ctx = testContext({ fieldValidation: 'Ignore', bodyFormat: 'patch' });
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, ctx, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
      const merged = await update(pods, ctx, patchBuilder(pods, ctx, 'p', 'merge', bad, false, 'status')).catch(refusal);
      expect(merged).toEqual([422, expect.stringMatching(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",.*\}": parsing time "notatime" as /)]);
      expect((merged as [number, string])[1].endsWith(`: ${parseError}`)).toBe(true);
      const strategic = await update(pods, ctx, patchBuilder(pods, ctx, 'p', 'strategic', bad, false, 'status')).catch(refusal);
      expect(strategic).toEqual([422, ` "" is invalid: patch: Invalid value: "map[status:map[conditions:[map[lastTransitionTime:notatime status:True type:example.com/Custom]]]]": ${parseError}`]);
      const json = [{ op: 'add', path: '/status/conditions', value: bad.status.conditions }];
      expect(await update(pods, ctx, patchBuilder(pods, ctx, 'p', 'json', json, false, 'status')).catch(refusal))
        .toEqual([422, expect.stringMatching(/^ "" is invalid: patch: Invalid value: "\{.*\}": parsing time "notatime" as /)]);
    });
  });

  it("of an apply fails the field manager's conversion of what it merged: a 400 with upstream's words (upstream: a 500)", async () => {
    await withRegistries(async (regs) => {
      const ctx = testContext({ fieldValidation: 'Ignore', bodyFormat: 'apply' });
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, ctx, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
      const config = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, ...bad };
      expect(await update(pods, ctx, patchBuilder(pods, ctx, 'p', 'apply', config, true, 'status')).catch(refusal)).toEqual([400,
        `failed to convert new object (default/p; /v1, Kind=Pod) to proper version: unable to convert unstructured object to /v1, Kind=Pod: ${parseError}`]);
    });
  });
});
