import { describe, expect, it } from 'vitest';
import { findFirst, parseJsonPath, printJsonPathValue } from './jsonpath.js';
import { customResourcePrinter } from './printer.js';

// client-go's Execute: each action's values printed, space-separated
const execute = (template: string, data: unknown): string =>
  parseJsonPath(template).findResults(data).map((vs) => vs.map(printJsonPathValue).join(' ')).join('');

const types = {
  bools: [true, false, true, false], integers: [1, 2, 3, 4], floats: [1.0, 2.2, 3.3, 4.0], strings: ['one', 'two', 'three', 'four'],
  maps: [{ name: 'one', value: 1 }, { name: 'two', value: 2.02 }, { name: 'three', value: 3.03 }, { name: 'four', value: 4.04 }],
};
const store = {
  Name: 'jsonpath',
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [{ Color: 'red', Price: 19.95, IsNew: true }, { Color: 'green', Price: 20.01, IsNew: false }],
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
};
const points = [
  { id: 'i1', x: 4, y: -5 }, { id: 'i2', x: -2, y: -5, z: 1 }, { id: 'i3', x: 8, y: 3 }, { id: 'i4', x: -6, y: -1 },
  { id: 'i5', x: 0, y: 2, z: 1 }, { id: 'i6', x: 1, y: 4 },
];

describe('client-go JSONPath', () => {
  it('evaluates what upstream\'s jsonpath_test.go evaluates', () => {
    const cases: Array<[string, unknown, string]> = [
      ['{ .bools[-1] }', types, 'false'], ['{ .bools[:4:2] }', types, 'true true'], ['{ .integers[-2] }', types, '3'],
      ['{ .integers[0:2] }', types, '1 2'], ['{ .floats }', types, '[1,2.2,3.3,4]'], ['{ .strings[:4:2] }', types, 'one three'],
      ['{ .maps[1::2] }', types, '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
      ['hello jsonpath', null, 'hello jsonpath'], ['{..}', [1, 2, 3], '[1,2,3]'], ['{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
      ['{"{"}', null, '{'], ['{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'], ['hello {.Name}', store, 'hello jsonpath'],
      ['{$.Labels.web/html}', store, '15'], ['{.Labels.k8s-app}', store, '20'], ['{.Bicycle[*].Color}', store, 'red green'],
      ['{..Price}', store, '8.95 12.99 8.99 19.95 20.01'], ['{...Price}', store, '8.95 12.99 8.99 19.95 20.01'],
      ['{.Book[-1:]}', store, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
      ['{..Book[2].Title}', store, 'Moby Dick'], ['{.Bicycle[?(@.IsNew==true)].Color}', store, 'red'],
      ['{.Book[?(@.Price<10.0)].Title}', store, 'Sayings of the Centurey Moby Dick'], ['{.hello}', store, ''],
      ['before-{.hello}after', store, 'before-after'], ['{[?(@.z)].id}', points, 'i2 i5'], ['{[0][\'id\']}', points, 'i1'],
      ['{[?(@.x>=1)].id}', points, 'i1 i3 i6'], ['{[?(@.id!="i1")].x}', points, '-2 8 -6 0 1'],
      ['{.items[*][\'metadata.name\', \'status.capacity\']}', { items: [{ metadata: { name: 'a' }, status: { capacity: { cpu: '4' } } }] }, 'a {"cpu":"4"}'],
      ['{.metadata.labels.kubernetes\\.io/hostname}', { metadata: { labels: { 'kubernetes.io/hostname': 'h' } } }, 'h'],
    ];
    for (const [template, data, want] of cases) expect(execute(template, data), template).toBe(want);
  });

  it('raises upstream\'s parse and evaluation errors', () => {
    const parse = (t: string) => () => parseJsonPath(t);
    expect(parse('{............Price}')).toThrow('invalid multiple recursive descent');
    expect(parse('{.a[?(@.x=="y" && @.z=="w")]}')).toThrow('unrecognized character in action: U+0026 \'&\'');
    expect(parse('{.a[x]}')).toThrow('invalid array index x');
    expect(parse('{.a')).toThrow('unclosed action');
    expect(() => execute('{hello}', store)).toThrow('unrecognized identifier hello');
    expect(() => execute('{.Labels[0]}', store)).toThrow('map[string]interface {} is not array or slice');
    expect(() => execute('{.Book[?(@.Price<>10)]}', store)).toThrow('unrecognized filter operator <>');
    expect(() => execute('{.Book[5]}', store)).toThrow('array index out of bounds: index 5, length 3');
    expect(() => execute('{.Book[?(@.Price=="x")]}', store)).toThrow('incompatible types for comparison');
  });

  it('reads selectable fields as client-go: missing keys and errors give nothing', () => {
    const obj = { status: { conditions: [{ type: 'A', status: 'False' }, { type: 'Ready', status: 'True' }] }, spec: { 'a.b': 1 } };
    expect(findFirst(obj, '.status.conditions[?(@.type=="Ready")].status')).toBe('True');
    expect(findFirst(obj, '.spec.a\\.b')).toBe(1);
    expect(findFirst(obj, ".spec['a.b']")).toBeUndefined(); // client-go reads it as .spec.a.b
    expect(findFirst(obj, '.status.conditions[-1:].type')).toBe('Ready');
    expect(findFirst(obj, '.missing.x')).toBeUndefined();
    expect(findFirst({ status: { conditions: [] } }, '.status.conditions[-1:].type')).toBeUndefined();
  });
});

describe('printer columns', () => {
  const now = new Date('2024-01-01T00:00:10Z');
  const cells = (columns: Array<{ name: string; type: string; jsonPath: string }>, obj: Record<string, unknown>) =>
    customResourcePrinter(columns).cells({ metadata: { name: 'x' }, ...obj } as never, now);

  it('prints slices, unions and filters as Kubeflow\'s jobs use them, strings as client-go prints values', () => {
    const obj = {
      spec: { n: 1000000, f: 0.5, m: { b: '<x>', a: 1 }, none: null },
      status: { conditions: [{ type: 'Created', status: 'True' }, { type: 'Running', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
    };
    expect(cells([
      { name: 'State', type: 'string', jsonPath: '.status.conditions[-1:].type' },
      { name: 'Since', type: 'date', jsonPath: '.status.conditions[-1:].lastTransitionTime' },
      { name: 'Both', type: 'string', jsonPath: '.status.conditions[0,1].type' },
      { name: 'N', type: 'string', jsonPath: '.spec.n' },
      { name: 'F', type: 'string', jsonPath: '.spec.f' },
      { name: 'M', type: 'string', jsonPath: '.spec.m' },
      { name: 'Null', type: 'string', jsonPath: '.spec.none' },
      { name: 'Int', type: 'integer', jsonPath: '.spec.f' },
      { name: 'Gone', type: 'string', jsonPath: '.status.conditions[5].type' },
    ], obj)).toEqual(['x', 'Running', '10s', 'Created', '1000000', '0.5', '{"a":1,"b":"\\u003cx\\u003e"}', '<no value>', 0, null]);
  });

  it('keeps the columns before the first whose path does not parse, as upstream\'s table convertor', () => {
    const p = customResourcePrinter([
      { name: 'A', type: 'string', jsonPath: '.a' },
      { name: 'B', type: 'string', jsonPath: '.b[?(@.x' },
      { name: 'C', type: 'string', jsonPath: '.c' },
    ]);
    expect(p.columns.map((c) => c.name)).toEqual(['Name', 'A']);
  });
});
