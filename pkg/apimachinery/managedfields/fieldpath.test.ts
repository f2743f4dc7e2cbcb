import { describe, expect, it } from 'vitest';
import { decodeEntries, entryHas } from './entries.js';
import { comparePaths, decodeFieldsV1, encodeFieldsV1, FieldTrie, fieldPE, hasDescendant, keyPE, parseFieldsV1, pathKey, pathString, valuePE, type Path } from './fieldpath.js';

describe('FieldsV1', () => {
  const fields = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:replicas': {},
      'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
    },
  };

  it('round-trips, writing "." for nodes that are members with children', () => {
    const set = decodeFieldsV1(fields);
    expect(set.has(pathKey(['f:metadata', 'f:labels']))).toBe(true);
    expect(set.has(pathKey(['f:metadata']))).toBe(false);
    expect(set.has(pathKey(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image']))).toBe(true);
    expect(encodeFieldsV1(set)).toEqual(fields);
    expect(JSON.stringify(encodeFieldsV1(set))).toBe(JSON.stringify(fields));
  });

  it('writes keys sorted and prints paths as conflict messages do', () => {
    expect(keyPE({ protocol: 'TCP', containerPort: 80 })).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(pathString([fieldPE('spec'), fieldPE('replicas')])).toBe('.spec.replicas');
    expect(pathString([fieldPE('spec'), fieldPE('ports'), keyPE({ port: 80, protocol: 'TCP' })])).toBe('.spec.ports[port=80,protocol="TCP"]');
    expect(pathString([fieldPE('metadata'), fieldPE('finalizers'), valuePE('a/b')])).toBe('.metadata.finalizers[="a/b"]');
  });

  it('reads a client\'s FieldsV1 as structured-merge-diff does: null nodes are members, key fields sorted, unknown types dropped', () => {
    expect([...parseFieldsV1({ 'f:a': null, 'f:b': { '.': {}, 'k:{"y":1,"x":2}': {} }, 'z:later': { 'f:c': {} } })!]).toEqual([
      pathKey(['f:a']), pathKey(['f:b']), pathKey(['f:b', 'k:{"x":2,"y":1}']),
    ]);
    for (const bad of [{ 'f:a': 1 }, { 'f:a': [] }, { f: {} }, { 'fa': {} }, { 'i:1.5': {} }, { 'k:"x"': {} }, { 'v:nope': {} }]) expect(parseFieldsV1(bad)).toBeUndefined();
    expect(parseFieldsV1(undefined)?.size).toBe(0);
  });

  it('finds descendants', () => {
    const set = new Set([pathKey(['f:a', 'f:b'])]);
    expect(hasDescendant(set, ['f:a'])).toBe(true);
    expect(hasDescendant(set, ['f:a', 'f:b'])).toBe(false);
  });

  it('answers membership from a stored entry without decoding it, as the decoded set does', () => {
    const [stored] = decodeEntries([{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: fields }], true);
    const set = decodeFieldsV1(fields);
    const probes = [[], ['f:metadata'], ['f:metadata', 'f:labels'], ['f:metadata', 'f:labels', 'f:app'], ['f:spec', 'f:replicas'], ['f:spec', 'f:replicas', 'f:x'],
      ['f:spec', 'f:template'], ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"nginx"}'], ['f:status']];
    for (const p of probes) expect(entryHas(stored, pathKey(p))).toBe(set.has(pathKey(p)));
  });

  it('builds FieldsV1 as a tree, leaving out excluded and empty subtrees', () => {
    const trie = new FieldTrie();
    trie.exclude(['f:metadata', 'f:name']);
    expect(trie.mark(['f:metadata', 'f:name'])).toBe(false);
    trie.child('f:metadata')!.child('f:annotations');
    expect(trie.mark(['f:metadata', 'f:labels'])).toBe(true);
    expect(trie.mark(['f:metadata', 'f:labels', 'f:app'])).toBe(true);
    expect(trie.render()).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
    expect(new FieldTrie().render()).toBeUndefined();
  });
});

describe('comparePaths', () => {
  it('orders paths as the field set iterates: a level\'s members before its children, numbers as numbers', () => {
    const paths: Path[] = [
      ['f:spec', 'f:template', 'f:spec'], ['f:spec', 'f:replicas'], ['f:spec', 'f:ports', 'k:{"port":10}'], ['f:spec', 'f:ports', 'k:{"port":9}'],
      ['f:metadata', 'f:labels', 'f:a'], ['f:spec', 'f:tags', 'v:"b"'], ['f:spec', 'f:tags', 'v:"a"'], ['f:spec', 'f:list', 'i:10'], ['f:spec', 'f:list', 'i:2'],
    ];
    expect([...paths].sort(comparePaths).map(pathString)).toEqual([
      '.metadata.labels.a',
      '.spec.replicas',
      '.spec.list[2]', '.spec.list[10]', '.spec.ports[port=9]', '.spec.ports[port=10]', '.spec.tags[="a"]', '.spec.tags[="b"]',
      '.spec.template.spec',
    ]);
  });
});
