import { describe, expect, it } from 'vitest';
import { definitions, lookup } from '../testdata/schemas.js';
import { fieldPE, keyPE, pathKey, valuePE } from './fieldpath.js';
import { mergeApplied, removeFields } from './merge.js';
import { fieldSetOf } from './walk.js';

const podSpec = definitions['io.k8s.api.core.v1.PodSpec'];
const meta = definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
const names = (v: unknown) => (v as { containers: { name: string }[] }).containers.map((c) => c.name);

describe('mergeApplied', () => {
  it('keeps live-only items in place and takes the config order for the rest', () => {
    const live = { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }, { name: 'c', image: '1' }] };
    const out = mergeApplied(live, { containers: [{ name: 'c', image: '2' }, { name: 'new' }, { name: 'a' }] }, podSpec, lookup);
    expect(names(out)).toEqual(['b', 'c', 'new', 'a']);
    expect((out as typeof live).containers[1]).toEqual({ name: 'c', image: '2' });
    expect((out as typeof live).containers[3]).toEqual({ name: 'a', image: '1' });
  });

  it('replaces atomic values, unions sets and deletes on null', () => {
    const live = { finalizers: ['x'], labels: { a: '1', b: '2' }, managedFields: [{ manager: 'm' }] };
    const out = mergeApplied(live, { finalizers: ['y', 'x'], labels: { b: null, c: '3' }, managedFields: [{ manager: 'n' }] }, meta, lookup);
    expect(out).toEqual({ finalizers: ['y', 'x'], labels: { a: '1', c: '3' }, managedFields: [{ manager: 'n' }] });
  });
});

describe('fieldSetOf and removeFields', () => {
  it('owns set items by value and map-list items by key', () => {
    const set = fieldSetOf({ finalizers: ['a/b'] }, meta, lookup);
    expect([...set]).toEqual([pathKey([fieldPE('finalizers'), valuePE('a/b')])]);
  });

  it('drops an item its applier dropped though someone else owns fields inside it, as upstream', () => {
    const value = { containers: [{ name: 'a', image: 'i', args: ['x'] }, { name: 'b' }] };
    const item = [fieldPE('containers'), keyPE({ name: 'a' })];
    const remove = new Set([pathKey(item), pathKey([...item, fieldPE('name')]), pathKey([...item, fieldPE('image')])]);
    const keep = new Set([pathKey([...item, fieldPE('args')]), pathKey([fieldPE('containers'), keyPE({ name: 'b' })])]);
    expect(removeFields(value, podSpec, lookup, remove, keep)).toEqual({ containers: [{ name: 'b' }] });
  });

  it('keeps a struct field someone else owns something below, with what is kept', () => {
    const strategy = definitions['io.k8s.api.apps.v1.DeploymentStrategy'];
    const value = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1', maxUnavailable: '0' } };
    const field = [fieldPE('rollingUpdate')];
    const remove = new Set([pathKey(field), pathKey([...field, fieldPE('maxSurge')])]);
    const keep = new Set([pathKey([fieldPE('type')]), pathKey([...field, fieldPE('maxUnavailable')])]);
    expect(removeFields(value, strategy, lookup, remove, keep)).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0' } });
    expect(removeFields(value, strategy, lookup, remove, new Set([pathKey([fieldPE('type')])]))).toEqual({ type: 'RollingUpdate' });
  });
});
