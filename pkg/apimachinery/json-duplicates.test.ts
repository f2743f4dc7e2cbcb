// The JSON scan before parsing: repeated fields by upstream's paths, nesting depth, numbers written with a fraction or
// an exponent, and nothing else.
import { describe, expect, it } from 'vitest';
import { fieldOffsets, floatLiterals, scanJson } from './json-duplicates.js';
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

describe('numbers written with a fraction or an exponent', () => {
  it('are noticed by the scan, with or without looking for duplicates, whatever the size of the body', () => {
    for (const n of ['2.0', '1e1', '1E3', '-0.5', '2e-3', '1.5E+2', '-1e0']) {
      expect(scanJson(`{"spec":{"replicas":${n}}}`, true), n).toEqual({ tooDeep: false, floats: true });
      expect(scanJson(`[${n}]`, false), n).toEqual({ tooDeep: false, floats: true });
    }
    expect(scanJson('{"a":1,"a":2.5}', true)).toEqual({ tooDeep: false, floats: true, duplicates: { paths: ['a'], offsets: [7] } });
  });

  it('are not seen in integers, literals, keys or strings: such a body gets no result', () => {
    const plain = '{"replicas":10,"n":-3,"t":true,"f":false,"z":null,"image":"nginx:1.25","1e5":"2.0e3","x\\\\":"\\\\1.5","list":[0,1]}';
    expect(JSON.parse(plain)['x\\']).toBe('\\1.5');
    expect(scanJson(plain, true)).toBeUndefined();
    expect(scanJson(plain, false)).toBeUndefined();
  });

  it('are found, where the scan noticed one, by their path and as written, in document order', () => {
    const text = '{"spec":{"replicas":2.0,"template":{"spec":{"containers":[{"ports":[{"containerPort":80},{"containerPort":8e1}]}],' +
      '"terminationGracePeriodSeconds":1E1}},"weight":0.5},"a\\u002eb":{"c":-1.50}}';
    expect(floatLiterals(text)).toEqual([
      { path: ['spec', 'replicas'], text: '2.0' },
      { path: ['spec', 'template', 'spec', 'containers', 0, 'ports', 1, 'containerPort'], text: '8e1' },
      { path: ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], text: '1E1' },
      { path: ['spec', 'weight'], text: '0.5' },
      { path: ['a.b', 'c'], text: '-1.50' },
    ]);
    expect(floatLiterals('[{"op":"replace","path":"/spec/replicas","value":2.0},{"op":"add","path":"/x","value":[1,2.5]}]')).toEqual([
      { path: [0, 'value'], text: '2.0' },
      { path: [1, 'value', 1], text: '2.5' },
    ]);
    expect(floatLiterals('{"a":1,"a":2.0,"a":3}')).toEqual([{ path: ['a'], text: '2.0' }]);
    expect(floatLiterals('{"a":[1,2,"x"]}')).toEqual([]);
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
