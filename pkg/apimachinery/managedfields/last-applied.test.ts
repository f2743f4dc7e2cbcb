import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { statusErrorOf } from '../testing/status-error.js';
import { DEPLOYMENT, lookup } from '../testdata/schemas.js';
import { apply } from './apply.js';
import { goJsonEncode, LAST_APPLIED_ANNOTATION } from './last-applied.js';
import { updateManagedFields } from './update.js';

const T1 = '2026-01-02T03:04:05Z';
const opts = (force = false) => ({ force, lookup, rootDefinition: DEPLOYMENT, apiVersion: 'apps/v1', now: T1 });

const config = (replicas: number, image = 'nginx:1'): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { replicas, template: { spec: { containers: [{ name: 'nginx', image }] } } },
});

/** What kubectl apply (client-side) leaves: the configuration, its annotation, kubectl-client-side-apply owning both. */
const clientSideApplied = (c: KubeObject): KubeObject => {
  const annotated = { ...c, metadata: { ...c.metadata, annotations: { [LAST_APPLIED_ANNOTATION]: goJsonEncode(c) } } };
  return updateManagedFields(undefined, annotated, 'kubectl-client-side-apply', opts());
};

const managers = (o: KubeObject) => (o.metadata?.managedFields ?? []).map((e) => e.manager);
const owns = (o: KubeObject, manager: string) => JSON.stringify(o.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1 ?? {});

describe('moving from client-side to server-side apply', () => {
  it('lets kubectl take, unforced, the fields its annotation lists with their live values', () => {
    const live = clientSideApplied(config(1));
    const out = apply(live, config(3, 'nginx:2'), 'kubectl', opts());
    expect(out.spec.replicas).toBe(3);
    expect(managers(out)).toEqual(['kubectl', 'kubectl-client-side-apply']);
    expect(owns(out, 'kubectl-client-side-apply')).not.toContain('f:replicas');
    expect(owns(out, 'kubectl-client-side-apply')).not.toContain('f:image');
    // the annotation follows the new configuration
    expect(JSON.parse(out.metadata!.annotations![LAST_APPLIED_ANNOTATION])).toEqual(config(3, 'nginx:2'));
  });

  it('is kubectl\'s alone: another manager conflicts', () => {
    const live = clientSideApplied(config(1));
    expect(statusErrorOf(() => apply(live, config(3), 'kubectl-ssa', opts())).message)
      .toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
  });

  it('reports only the conflicts the annotation does not cover: fields changed since it was written', () => {
    const live = clientSideApplied(config(1));
    const scaled = updateManagedFields(live, { ...live, spec: { ...live.spec, replicas: 5 } }, 'kubectl-client-side-apply', opts());
    const e = statusErrorOf(() => apply(scaled, config(3, 'nginx:2'), 'kubectl', opts()));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
  });

  it('allows nothing for an annotation of another version, or one that is not an object with a kind', () => {
    for (const text of ['{"apiVersion":"apps/v1beta1","kind":"Deployment","spec":{"replicas":1}}', '{"apiVersion":"apps/v1","spec":{"replicas":1}}', 'not json']) {
      const live = clientSideApplied(config(1));
      live.metadata!.annotations![LAST_APPLIED_ANNOTATION] = text;
      expect(statusErrorOf(() => apply(live, config(3), 'kubectl', opts())).code).toBe(409);
    }
  });
});

describe('the synced annotation', () => {
  it('is dropped when it would take the annotations past 256 KiB, as upstream\'s SetLastApplied', () => {
    const live = clientSideApplied(config(1));
    const big = { ...config(1), metadata: { name: 'web', annotations: { big: 'x'.repeat(140 * 1024) } } };
    const out = apply(live, big, 'kubectl', opts());
    expect(Object.keys(out.metadata!.annotations!)).toEqual(['big']);
    // one that fits is kept
    const small = apply(live, { ...big, metadata: { name: 'web', annotations: { big: 'x'.repeat(100 * 1024) } } }, 'kubectl', opts());
    expect(JSON.parse(small.metadata!.annotations![LAST_APPLIED_ANNOTATION]).metadata.annotations.big).toHaveLength(100 * 1024);
  });
});

describe('goJsonEncode', () => {
  it('sorts keys, escapes as Go\'s encoder does and ends with a newline', () => {
    expect(goJsonEncode({ b: '<a href="x">&\u2028\u2029', a: [1, { d: null, c: true }] }))
      .toBe('{"a":[1,{"c":true,"d":null}],"b":"\\u003ca href=\\"x\\"\\u003e\\u0026\\u2028\\u2029"}\n');
  });

  it('writes the synced annotation that way', () => {
    const live = clientSideApplied(config(1));
    const note = { ...config(1), metadata: { name: 'web', annotations: { note: 'a<b>&c' } } };
    const out = apply(live, note, 'kubectl', opts(true));
    expect(out.metadata!.annotations![LAST_APPLIED_ANNOTATION]).toContain('"note":"a\\u003cb\\u003e\\u0026c"');
  });
});
