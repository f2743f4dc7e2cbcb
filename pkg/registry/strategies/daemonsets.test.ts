import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { systemContext } from '../context.js';
import { TEMPLATE_GENERATION_ANNOTATION as TG, daemonSetStrategy as s } from './daemonsets.js';

const ctx = systemContext('ns');
const ds = (image: string, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd', ...(annotations ? { annotations } : {}) },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image }] } } },
});
const created = (o: KubeObject): KubeObject => { s.prepareForCreate!(o, ctx); return o; };
const updated = (o: KubeObject, old: KubeObject): KubeObject => { s.prepareForUpdate!(o, old, ctx); return o; };

describe('DaemonSet template generation (upstream spec.templateGeneration, shown as an annotation)', () => {
  it('is 1 at create, or the value sent when it is at least 1', () => {
    expect(created(ds('x')).metadata!.annotations).toEqual({ [TG]: '1' });
    expect(created(ds('x', { [TG]: '0' })).metadata!.annotations).toEqual({ [TG]: '1' });
    expect(created(ds('x', { [TG]: '-4' })).metadata!.annotations).toEqual({ [TG]: '1' });
    expect(created(ds('x', { [TG]: '+07', other: 'y' })).metadata!.annotations).toEqual({ [TG]: '7', other: 'y' });
  });

  it('rises on an update only when the template changes, whatever the update sends', () => {
    const old = created(ds('x', { [TG]: '3' }));
    expect(updated(ds('x'), old).metadata!.annotations).toEqual({ [TG]: '3' });
    expect(updated(ds('x', { [TG]: '9' }), old).metadata!.annotations).toEqual({ [TG]: '3' });
    const spec = ds('x');
    spec.spec!.minReadySeconds = 5;
    expect(updated(spec, old).metadata!.annotations).toEqual({ [TG]: '3' });
    expect(updated(ds('y', { [TG]: '9' }), old).metadata!.annotations).toEqual({ [TG]: '4' });
  });

  it('a status update keeps the stored one', () => {
    const old = created(ds('x', { [TG]: '3' }));
    const next = ds('x', { [TG]: '8' });
    s.prepareForStatusUpdate!(next, old, ctx);
    expect(next.metadata!.annotations).toEqual({ [TG]: '3' });
  });

  it('a value that is no int64 fails the decoding, as the v1 conversion does', () => {
    expect(() => created(ds('x', { [TG]: 'one' }))).toThrow('DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "one": invalid syntax');
    expect(() => updated(ds('x', { [TG]: '9223372036854775808' }), created(ds('x')))).toThrow('strconv.ParseInt: parsing "9223372036854775808": value out of range');
  });
});
