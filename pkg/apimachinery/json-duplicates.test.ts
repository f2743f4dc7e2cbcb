// The JSON scan before parsing: repeated fields by upstream's paths, nesting depth, and nothing else.
import { describe, expect, it } from 'vitest';
import { fieldOffsets, scanJson } from './json-duplicates.js';
import { MAX_DEPTH } from './nesting.js';
import { invalidDeploymentJson } from './testdata/field-validation.js';

const dups = (text: string): string[] | undefined => scanJson(text, true)?.duplicates?.paths;

const DEPLOYMENT = invalidDeploymentJson('d');

describe('scanJson', () => {
  it('finds the repeated fields of a body by their paths, in document order', () => {
    const found = scanJson(DEPLOYMENT, true)!.duplicates!;
    expect(found.paths).toEqual(['metadata.name', 'spec.unknownDupe', 'spec.paused', 'spec.template.spec.containers[0].imagePullPolicy']);
    expect(found.offsets.map((o) => DEPLOYMENT.slice(o, o + 7))).toEqual(['"name":', '"unknow', '"paused', '"imageP']);
    expect(JSON.parse(DEPLOYMENT).spec.paused).toBe(false); // JSON.parse keeps the last, as Go's decoder does
  });

  it('has nothing to say of a body without repetitions, and allocates no result for it', () => {
    expect(scanJson(JSON.stringify({ a: { a: { a: 1 } }, b: [{ a: 1 }, { a: 2 }], c: ['a', 'a'], d: { x: 'a', y: 'a' } }), true)).toBeUndefined();
    expect(scanJson('{"name":"x","nAme":"y","eman":"z"}', true)).toBeUndefined();
    expect(scanJson('{}', true)).toBeUndefined();
    expect(scanJson('[]', true)).toBeUndefined();
  });

  it('writes list items by index, a top-level list too (a JSON patch)', () => {
    expect(dups('[{"op":"add","path":"/a"},{"op":"add","path":"/b","path":"/c"}]')).toEqual(['[1].path']);
    expect(dups('{"a":[[{"x":1}],[{"x":1,"y":2,"x":3}]]}')).toEqual(['a[1][0].x']);
  });

  it('compares keys as decoded: escapes and quotes inside strings do not fool it', () => {
    expect(dups('{"ab":1,"a\\u0062":2}')).toEqual(['ab']);
    expect(dups('{"a\\"b":1,"a\\"b":2}')).toEqual(['a"b']);
    expect(dups('{"k":"\\",\\"k\\":","v":1}')).toBeUndefined();
    expect(dups('{"x":"{\\"a\\":1,\\"a\\":2}"}')).toBeUndefined();
  });

  it('reports each repeated path once, however often it repeats', () => {
    expect(dups('{"a":1,"a":2,"a":3,"b":{"c":1,"c":2},"b":{"c":3,"c":4}}')).toEqual(['a', 'b.c', 'b']);
  });

  it('holds objects of many keys in a set, and still finds their repetitions', () => {
    const keys = Array.from({ length: 500 }, (_, i) => `"k${i}":${i}`);
    const big = `{"data":{${keys.join(',')},"k7":0,"k499":1},"after":{"k7":1}}`;
    expect(dups(big)).toEqual(['data.k7', 'data.k499']);
    expect(dups(`{"data":{${keys.join(',')}}}`)).toBeUndefined();
    // and the next scan starts clean
    expect(dups('{"k7":1,"k8":2}')).toBeUndefined();
  });

  it('measures depth as nesting.ts does, and refuses past MAX_DEPTH', () => {
    const deep = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    expect(scanJson(deep(MAX_DEPTH), true)).toBeUndefined();
    expect(scanJson(deep(MAX_DEPTH + 1), true)?.tooDeep).toBe(true);
    expect(scanJson(deep(MAX_DEPTH + 1), false)?.tooDeep).toBe(true);
    expect(scanJson('[{"a":1,"a":2}]', false)).toBeUndefined(); // not asked to look for duplicates
  });

  it('never throws on text that is not JSON (JSON.parse refuses it next)', () => {
    for (const bad of ['{"a":1,"a"', '}}]]{"a', '{"a\\x":1,"a\\x":2}', '"unterminated', '{"a":{"b":1,"b":2', '']) {
      expect(() => scanJson(bad, true)).not.toThrow();
    }
    expect(dups('{"ok":1,"ok":2}')).toEqual(['ok']);
  });
});

describe('fieldOffsets', () => {
  it('gives where each field first appears, by path', () => {
    const at = fieldOffsets(DEPLOYMENT);
    expect(DEPLOYMENT.slice(at.get('spec.unknown1')!, at.get('spec.unknown1')! + 10)).toBe('"unknown1"');
    expect(at.get('spec.template.spec.containers[0].unknownNested')).toBeGreaterThan(at.get('spec.paused')!);
    expect(at.get('metadata.name')).toBeLessThan(at.get('metadata.unknownMeta')!);
  });
});
