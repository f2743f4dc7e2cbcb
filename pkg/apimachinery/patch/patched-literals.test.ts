// Where a patch's 2.0s are in the object it made: a merge patch's at their own paths, a JSON patch's at the paths of
// the operations that put them there; a strategic merge patch's nowhere (upstream takes an integral float there).
import { describe, expect, it } from 'vitest';
import { rememberFloatLiterals } from '../float-literals.js';
import { floatLiterals } from '../json-duplicates.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { patchedLiterals } from './patched-literals.js';

/** A patch body as decodeBody leaves it: parsed, its literals remembered. */
const body = (text: string): unknown => {
  const value = JSON.parse(text) as unknown;
  rememberFloatLiterals(value, floatLiterals(text));
  return value;
};

const current = { spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } } } };

describe('patchedLiterals', () => {
  it('finds a merge patch\'s numbers at their own paths', () => {
    const patch = body('{"spec":{"replicas":2.0,"template":{"spec":{"containers":[{"name":"c","ports":[{"containerPort":8e1}]}]}}}}');
    expect(patchedLiterals('merge', patch, applyMergePatch(current, patch))).toEqual([
      { path: ['spec', 'replicas'], text: '2.0' },
      { path: ['spec', 'template', 'spec', 'containers', 0, 'ports', 0, 'containerPort'], text: '8e1' },
    ]);
  });

  it('finds a JSON patch\'s values where its add and replace operations put them, an appended item too', () => {
    const patch = body('[{"op":"replace","path":"/spec/replicas","value":2.0},{"op":"test","path":"/spec/replicas","value":2.0},' +
      '{"op":"add","path":"/spec/template/spec/containers/0/ports/-","value":{"containerPort":1e3}},' +
      '{"op":"add","path":"/spec/template/spec/containers/0/ports/0","value":{"containerPort":81.0}}]');
    expect(patchedLiterals('json', patch, applyJsonPatch(current, patch))).toEqual([
      { path: ['spec', 'replicas'], text: '2.0' },
      { path: ['spec', 'template', 'spec', 'containers', '0', 'ports', '2', 'containerPort'], text: '1e3' },
      { path: ['spec', 'template', 'spec', 'containers', '0', 'ports', '0', 'containerPort'], text: '81.0' },
    ]);
  });

  it('drops a value a later operation changed, and has none for a strategic merge patch or a patch without any', () => {
    const patch = body('[{"op":"add","path":"/spec/replicas","value":2.0},{"op":"replace","path":"/spec/replicas","value":3}]');
    expect(patchedLiterals('json', patch, applyJsonPatch(current, patch))).toEqual([]);
    expect(patchedLiterals('strategic', body('{"spec":{"replicas":2.0}}'), current)).toBeUndefined();
    expect(patchedLiterals('merge', body('{"spec":{"replicas":2}}'), current)).toBeUndefined();
  });
});
