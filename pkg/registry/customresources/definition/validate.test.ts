import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../../../api/apiextensions/v1/index.js';
import { loadCel } from '../../../apimachinery/cel/index.js';
import { causeToString } from '../../../apimachinery/field.js';
import { nonStructuralViolations, validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './validate.js';

// the rules' compilation needs the CEL runtime, which a server loads at start
beforeAll(async () => { await loadCel(); });

const crd = (schema: JSONSchemaProps, extra: Record<string, unknown> = {}, versions?: unknown[]): CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: (versions ?? [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...extra }]) as never,
  },
  status: { storedVersions: ['v1'] },
});

const errors = (c: CustomResourceDefinition): string[] => validateCustomResourceDefinition(c).map(causeToString);
const obj = (properties: Record<string, JSONSchemaProps>, more: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...more });

describe('CRD validation as upstream', () => {
  it('accepts a sound CRD', () => {
    expect(errors(crd(obj({ spec: obj({ replicas: { type: 'integer', default: 1, minimum: 0 } }) })))).toEqual([]);
  });

  it('reports defaults under schemas no validator compiles as errors, not failures (a type it does not know, a rule that does not parse)', () => {
    const badType = errors(crd(obj({ spec: obj({ a: { type: 'x' } }, { default: { a: 1 } }) })));
    expect(badType).toContain('spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Unsupported value: "x": supported values: "array", "boolean", "integer", "number", "object", "string"');
    expect(badType.some((e) => e.startsWith('spec.validation.openAPIV3Schema.properties[spec].default: Invalid value:'))).toBe(true);
    expect(errors(crd(obj({ spec: obj({ n: { type: 'integer', default: 3, 'x-kubernetes-validations': [{ rule: 'self <' }] } }) }))))
      .toEqual([expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[n\]\.default: Invalid value: "integer": rule compile error: compilation failed: ERROR: <input>:1:6: Syntax error/)]);
    // keywords upstream takes whatever their number: a maxLength of -1 refuses every string, the default among them
    expect(errors(crd(obj({ spec: obj({ s: { type: 'string', maxLength: -1, default: 'x' }, m: { type: 'integer', multipleOf: -1, default: 3 } }) }))))
      .toEqual([expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[s\]\.default: /)]);
  });

  it('words structural violations with the lifted spec.validation path', () => {
    expect(errors(crd(obj({ foo: { description: 'untyped' } })))).toEqual([
      'spec.validation.openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields',
    ]);
    expect(errors(crd(obj({ a: { type: 'string' } }, { anyOf: [{ type: 'object', properties: { b: { maxLength: 1 } } }] })))).toEqual([
      'spec.validation.openAPIV3Schema.anyOf[0].type: Forbidden: must be empty to be structural',
      'spec.validation.openAPIV3Schema.properties[b]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[b]',
    ]);
    expect(errors(crd({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }))).toEqual([
      'spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root',
      'spec.validation.openAPIV3Schema.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
    ]);
    expect(errors(crd(obj({ metadata: obj({ labels: { type: 'object' } }) })))).toEqual([
      'spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
    ]);
  });

  it('uses per-version paths when versions differ and checks storage versions', () => {
    const v = (name: string, storage: boolean, schema: JSONSchemaProps) => ({ name, served: true, storage, schema: { openAPIV3Schema: schema } });
    const c = crd({}, {}, [v('v1', true, obj({ a: {} })), v('v2', true, obj({}))]);
    expect(errors(c)).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields',
      expect.stringMatching(/^spec\.versions: Invalid value: .*: must have exactly one version marked as storage version$/),
      'status.storedVersions: Invalid value: []string{"v1"}: must have the storage version v2',
    ]);
  });

  it('checks defaults, list types, rules and subresources', () => {
    expect(errors(crd(obj({ spec: obj({ n: { type: 'integer', default: 'x' } }) })))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[n].default: Invalid value: "string": spec.validation.openAPIV3Schema.properties[spec].properties[n].default in body must be of type integer: "string"',
    ]);
    expect(errors(crd(obj({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: obj({ k: { type: 'string' } }) } })))).toEqual([
      'spec.validation.openAPIV3Schema.properties[l].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
    ]);
    expect(errors(crd(obj({ s: obj({ a: { type: 'string' } }, { 'x-kubernetes-validations': [{ rule: 'self.a ==' }, { rule: 'self.a == oldSelf.a', optionalOldSelf: true }] }) })))).toEqual([
      expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[s\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.a ==".*compilation failed: /),
    ]);
    const scaled = crd(obj({ spec: obj({}), status: obj({}) }), { subresources: { status: {}, scale: { specReplicasPath: '.replicas', statusReplicasPath: 'status.replicas' } } });
    expect(errors(scaled)).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec',
      'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
    ]);
  });

  it('reports what cel-go\'s type checker reports: undefined fields, operators without an overload, non-bool rules', () => {
    const rules = (r: Array<Record<string, string>>) => crd(obj({ spec: obj({ name: { type: 'string' }, n: { type: 'integer' }, m: { type: 'object', additionalProperties: { type: 'string' } } }, { 'x-kubernetes-validations': r as never }) }));
    expect(errors(rules([{ rule: 'self.nme == "x"' }]))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.nme == \\"x\\"", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'nme\'\n | self.nme == "x"\n | ....^',
    ]);
    expect(errors(rules([{ rule: 'self.n' }]))[0]).toMatch(/: cel expression must evaluate to a bool$/);
    expect(errors(rules([{ rule: 'self.n > 0', messageExpression: 'self.n' }]))[0]).toMatch(/x-kubernetes-validations\[0\]\.messageExpression: .*: messageExpression must evaluate to a string$/);
    expect(errors(rules([{ rule: 'self.m.all(k, self.m[k].size() > 0) && has(self.m.anything) && self.name.size() == self.n' }]))).toEqual([]);
    expect(errors(rules([{ rule: "self.n > 'a'" }]))[0]).toContain("compilation failed: ERROR: <input>:1:8: found no matching overload for '_>_' applied to '(int, string)'\n | self.n > 'a'\n | .......^");
    expect(errors(rules([{ rule: 'self.name + 1 == "x1"' }]))[0]).toContain("found no matching overload for '_+_' applied to '(string, int)'");
    expect(errors(rules([{ rule: '!self.n' }]))[0]).toContain("found no matching overload for '!_' applied to '(int)'");
    expect(errors(rules([{ rule: 'self.n > 1.5 && self.n + 1 <= 10 && self.name + "x" != "y" && -self.n < 0 && self.n % 2 == 0' }]))).toEqual([]);
    const root = crd({ type: 'object', properties: { spec: obj({}) }, 'x-kubernetes-validations': [{ rule: 'self.metadata.name.startsWith("a") && self.kind == "Widget"' }, { rule: 'has(self.metadata.labels)' }] });
    expect(errors(root)).toEqual([expect.stringContaining("undefined field 'labels'")]);
  });

  it('refuses methods, size(), in, ternaries and literals without an overload as cel-go does, and passes what it accepts', () => {
    const spec = obj({
      name: { type: 'string', maxLength: 10 }, n: { type: 'integer' }, d: { type: 'number' }, ok: { type: 'boolean' }, any: { 'x-kubernetes-int-or-string': true, maxLength: 10 } as JSONSchemaProps,
      tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } }, m: { type: 'object', maxProperties: 10, additionalProperties: { type: 'integer' } },
    });
    const first = (rule: string) => errors(crd(obj({ spec: { ...spec, 'x-kubernetes-validations': [{ rule }] } })))[0];
    expect(first("self.n.startsWith('a')")).toContain("compilation failed: ERROR: <input>:1:18: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.n.startsWith('a')\n | .................^");
    expect(first('self.name.startsWith(1)')).toContain("found no matching overload for 'startsWith' applied to 'string.(int)'");
    expect(first('size(self.n) > 0')).toContain("ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'\n | size(self.n) > 0\n | ....^");
    expect(first('self.ok.size() > 0')).toContain("found no matching overload for 'size' applied to 'bool.()'");
    expect(first('self.n in self.tags')).toContain("ERROR: <input>:1:8: found no matching overload for '@in' applied to '(int, list(string))'");
    expect(first("self.name in self.m")).toBeUndefined();
    expect(first('self.n in self.m')).toContain("found no matching overload for '@in' applied to '(int, map(string, int))'");
    expect(first("self.ok ? self.n : self.name")).toContain("ERROR: <input>:1:9: found no matching overload for '_?_:_' applied to '(bool, int, string)'");
    expect(first("(self.n ? 1 : 2) == 1")).toContain("found no matching overload for '_?_:_' applied to '(int, int, int)'");
    expect(first("self.tags[0] > 1")).toContain("found no matching overload for '_>_' applied to '(string, int)'");
    expect(first("self.tags.all(t, t.size() > 'a')")).toContain("found no matching overload for '_>_' applied to '(int, string)'");
    expect(first("self.tags + [1] == self.tags")).toContain("found no matching overload for '_+_' applied to '(list(string), list(int))'");
    expect(first("self.name in [1, 'a']")).toContain("ERROR: <input>:1:18: expected type 'int' but found 'string'");
    expect(first("{'a': 1, 'b': 'c'}.size() == 2")).toContain("expected type 'int' but found 'string'");
    expect(first('selff.n > 1')).toContain("ERROR: <input>:1:1: undeclared reference to 'selff' (in container '')");
    expect(first("self.tags.all(t, t == tt)")).toContain("ERROR: <input>:1:23: undeclared reference to 'tt' (in container '')");
    expect(first("self.name.split(',').size() > self.name")).toContain("found no matching overload for '_>_' applied to '(int, string)'");
    const accepted = [
      "self.name.startsWith('a') && self.name.indexOf('b', 1) >= 0 && self.name.lowerAscii() != '' && size(self.tags) >= 0",
      "self.name in ['a', 'b'] && 'x' in self.tags && self.n in [1, 2] && self.d in [1, 2]",
      "(self.ok ? self.n : 0) > 1 && (self.ok ? self.any : 'a') == 'a' && [self.any, 1].size() == 2",
      "self.tags + ['x'] == self.tags && self.m == {'a': 1} && self.tags.map(t, t.size()).all(x, x > 0)",
      "self.any.startsWith('a') || size(self.any) > 0 || [].size() == 0 || self.tags.exists(t, t.matches('^a'))",
      "type(self.n) == int && self.tags.all(t, t != '') && optional.of(self.n).hasValue() && dyn(self.n) == 1 && sets.contains(self.tags, ['a'])",
      "self.?name.orValue('') != '' && self.m.exists(k, self.m[k] > 0) && self.tags.exists_one(t, t == 'a') && self.tags.filter(t, t != '').size() >= 0",
    ];
    for (const rule of accepted) expect([rule, first(rule)]).toEqual([rule, undefined]);
  });

  it('checks optional field selection against the schema, with positions in the rule as written', () => {
    const spec = obj({ name: { type: 'string' }, n: { type: 'integer' }, a: obj({ b: { type: 'string' } }), m: { type: 'object', additionalProperties: { type: 'integer' } }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
    const first = (rule: string) => errors(crd(obj({ spec: { ...spec, 'x-kubernetes-validations': [{ rule, message: 'm' }] } })))[0];
    expect(first('self.?nme.orValue("") == "x"')).toContain("compilation failed: ERROR: <input>:1:5: undefined field 'nme'\n | self.?nme.orValue(\"\") == \"x\"\n | ....^");
    expect(first('self.?a.?c.hasValue()')).toContain("ERROR: <input>:1:8: undefined field 'c'");
    expect(first('self.?a.c.hasValue()')).toContain("ERROR: <input>:1:8: undefined field 'c'");
    // columns and the caret line are the rule's own, not those of its rewriting without optional syntax
    expect(first('self.?name.orValue("") != "" && self.n.startsWith("a")')).toContain("ERROR: <input>:1:50: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.?name.orValue(\"\") != \"\" && self.n.startsWith(\"a\")\n | .................................................^");
    expect(first('[?self.?name,\n ?self.?a.b].size() > 0 &&\n self.nam == "x"')).toContain("ERROR: <input>:3:6: undefined field 'nam'\n |  self.nam == \"x\"\n | .....^");
    expect(first('self.?n.orValue(1) > "x"')).toContain("found no matching overload for '_>_' applied to '(int, string)'");
    expect(first('self.?name.value() > 1')).toContain("found no matching overload for '_>_' applied to '(string, int)'");
    expect(first('self.?name.orValue("") +')).toMatch(/compilation failed: ERROR: <input>:1:24: Syntax error: .*\n \| self\.\?name\.orValue\(""\) \+\n \| \.{23}\^$/);
    const accepted = ['self.?a.b.orValue("") == "x" && self.?m.?y.hasValue() && self.?m["x"].orValue(0) > 1', 'self.?free.anything.hasValue() && self.?free.?x.y.hasValue()', '{?"a": self.?n}.size() > 0 && [?self.?a.?b].size() >= 0'];
    for (const rule of accepted) expect([rule, first(rule)]).toEqual([rule, undefined]);
  });

  it('reads properties by their escaped names, as upstream spells them in CEL', () => {
    const spec = obj({ 'foo-bar': { type: 'string', maxLength: 5 }, namespace: { type: 'string', maxLength: 5 }, 'a.b/c': { type: 'integer' }, x__y: { type: 'integer' } });
    const first = (rule: string) => errors(crd(obj({ spec: { ...spec, 'x-kubernetes-validations': [{ rule }] } })))[0];
    expect(first("self.foo__dash__bar.startsWith('a') && self.__namespace__ != '' && self.a__dot__b__slash__c > 0 && self.x__underscores__y > 0 && has(self.foo__dash__bar)")).toBeUndefined();
    expect(first('self.foo__dash__bar > 1')).toContain("found no matching overload for '_>_' applied to '(string, int)'");
    expect(first('self.foo__dash__baz == ""')).toContain("undefined field 'foo__dash__baz'");
  });

  it('refuses rules whose estimated cost exceeds the budget', () => {
    const list = { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x.matches(y)))' }] } as JSONSchemaProps;
    const out = errors(crd(obj({ l: list })));
    expect(out[0]).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[l\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule/);
    const bounded = { ...list, maxItems: 5, items: { type: 'string', maxLength: 10 } };
    expect(errors(crd(obj({ l: bounded })))).toEqual([]);
  });

  // upstream's CELSchemaContext: below a list or map without maxItems/maxProperties a rule's cardinality is unbounded,
  // and its cost is charged as if it ran once per smallest serialized value of its own node that fits in a request
  describe('rule cost times how often the rule can run', () => {
    const at = 'spec.validation.openAPIV3Schema.properties[spec].properties[a].items.properties[b].items.properties[c]';
    const nested = (c: JSONSchemaProps, aMax?: number, bMax?: number): CustomResourceDefinition => crd(obj({ spec: obj({
      a: { type: 'array', maxItems: aMax, items: obj({ b: { type: 'array', maxItems: bMax, items: obj({ c }) } }) },
    }) }));
    const c = (rules: JSONSchemaProps['x-kubernetes-validations'], more: JSONSchemaProps = {}): JSONSchemaProps =>
      obj({ externalId: { type: 'string' }, roleArn: { type: 'string' }, x: { type: 'string', maxLength: 40 } }, { 'x-kubernetes-validations': rules, ...more });

    it('accepts a cheap rule on an object inside two lists without maxItems (prometheus-operator\'s sigv4)', () => {
      expect(errors(nested(c([{ rule: '!has(self.externalId) || has(self.roleArn)' }])))).toEqual([]);
    });

    it('charges an unbounded rule 3 MiB / (its node\'s smallest serialized size + 1) runs, not the product of the lists\' estimates', () => {
      // contains on a 40-character string costs 18; {} is 2 bytes, so 1048576 runs: 18874368
      expect(errors(nested(c([{ rule: "self.x.contains('abc')" }])))).toEqual([
        `${at}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.9x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      ]);
      // a required roleArn makes the smallest c {"roleArn":""}, 15 bytes: 196608 runs
      expect(errors(nested(c([{ rule: "self.x.contains('abc')" }], { required: ['roleArn'] })))).toEqual([]);
      // a required field with a default or without a CEL type adds nothing
      const free = { 'x-kubernetes-preserve-unknown-fields': true } as JSONSchemaProps;
      expect(errors(nested(c([{ rule: "self.x.contains('abc')" }], { required: ['free'], properties: { ...c([]).properties, free } }))).length).toBe(1);
    });

    it('charges a bounded rule the product of the maxItems above it', () => {
      expect(errors(nested(c([{ rule: "self.x.contains('abc')" }]), 1000, 555))).toEqual([]);
      expect(errors(nested(c([{ rule: "self.x.contains('abc')" }]), 1000, 556))).toEqual([
        `${at}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.000800x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      ]);
      // one unbounded list above is enough to fall back to the node's own estimate
      expect(errors(nested(c([{ rule: "self.x.contains('abc')" }], { required: ['roleArn'] }), 1000))).toEqual([]);
    });

    it('charges a messageExpression its own estimate, not times the cardinality', () => {
      expect(errors(nested(c([{ rule: 'has(self.roleArn)', messageExpression: "'bad: ' + self.externalId" }])))).toEqual([]);
    });

    it('blames the rules of at least 1% of the CRD limit when the total passes it', () => {
      const rules = (n: number, rule: string) => Array.from({ length: n }, () => ({ rule }));
      const list = (n: number, rule: string, maxItems: number): CustomResourceDefinition =>
        crd(obj({ spec: obj({ l: { type: 'array', maxItems, items: c(rules(n, rule)) } }) }));
      const total = (factor: string) => `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
      // 12 rules of 18 x 500000
      const out = errors(list(12, "self.x.contains('abc')", 500_000));
      expect(out).toHaveLength(5);
      expect(out.slice(0, 4)).toEqual(Array.from({ length: 4 }, () => expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[l\]\.items\.x-kubernetes-validations\[\d+\]\.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema$/)));
      expect(out[4]).toBe(total('1.080000x'));
      // 101 rules of 3 x 333333, each under 1% of the limit
      expect(errors(list(101, "self.x == 'abc'", 333_333))).toEqual([total('1.009999x')]);
    });
  });

  it('ratchets on update and keeps names immutable once established', () => {
    const old = crd(obj({ spec: obj({}) }));
    old.status!.conditions = [{ type: 'Established', status: 'True' }];
    const next = structuredClone(old);
    next.spec.scope = 'Cluster';
    next.spec.names.kind = 'Gadget';
    expect(validateCustomResourceDefinitionUpdate(next, old).map(causeToString)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
    ]);
  });

  it('reports the violations of a stored non-structural schema', () => {
    expect(nonStructuralViolations(crd(obj({ x: {} }))).map(causeToString)).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[x].type: Required value: must not be empty for specified object fields',
    ]);
  });
});

describe('API approval of protected groups', () => {
  const inGroup = (group: string, annotations?: Record<string, string>): CustomResourceDefinition => {
    const c = crd(obj({}));
    return { ...c, metadata: { name: `widgets.${group}`, annotations }, spec: { ...c.spec, group } };
  };
  const at = 'metadata.annotations[api-approved.kubernetes.io]';

  it('lets an update leave a stored CRD\'s approval state as it was, missing or invalid too', () => {
    const missing = inGroup('x.k8s.io');
    expect(errors(missing)).toEqual([`${at}: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`]);
    expect(validateCustomResourceDefinitionUpdate(missing, missing).map(causeToString)).toEqual([]);
    const invalid = inGroup('x.k8s.io', { 'api-approved.kubernetes.io': 'yes' });
    expect(validateCustomResourceDefinitionUpdate(invalid, missing).map(causeToString)).toEqual([expect.stringMatching(/^metadata\.annotations\[api-approved\.kubernetes\.io\]: Invalid value: "yes": /)]);
    expect(validateCustomResourceDefinitionUpdate(inGroup('x.k8s.io', { 'api-approved.kubernetes.io': 'no' }), invalid).map(causeToString)).toEqual([]);
  });

  it('takes what Go\'s url.ParseRequestURI parses with a scheme and a host as approved', () => {
    for (const ok of ['https://github.com/kubernetes/kubernetes/pull/1', 'http://user@host:8080/x?y#z', 'https://[::1]:1']) {
      expect(errors(inGroup('k8s.io', { 'api-approved.kubernetes.io': ok })), ok).toEqual([]);
    }
    for (const bad of ['/pull/1', 'https:/x', 'https:///x', 'https://host:port/', 'https://ho st/', 'https://a#b', '1http://a']) {
      expect(errors(inGroup('k8s.io', { 'api-approved.kubernetes.io': bad })), bad).toHaveLength(1);
    }
  });
});

describe('x-kubernetes-validations shapes', () => {
  it('words message and fieldPath errors with the field named, as validation.go does', () => {
    const rules = [
      { rule: 'true', message: ' ' },
      { rule: 'true', message: 'a\nb ' },
      { rule: 'true', fieldPath: ' ' },
      { rule: 'true', fieldPath: '.nope' },
    ];
    const at = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations';
    expect(errors(crd(obj({ spec: obj({ a: { type: 'string' } }, { 'x-kubernetes-validations': rules }) })))).toEqual([
      `${at}[0].message: Invalid value: " ": message must be non-empty if specified`,
      `${at}[1].message: Invalid value: "a\\nb ": message must not contain line breaks`,
      `${at}[2].fieldPath: Invalid value: " ": fieldPath must be non-empty if specified`,
      `${at}[2].fieldPath: Invalid value: " ": fieldPath must be a valid path`,
      `${at}[3].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    ]);
  });
});

describe('schema patterns', () => {
  it('compiles them as Go\'s regexp.Compile, with its error text', () => {
    const withPattern = (pattern: string) => errors(crd(obj({ s: { type: 'string', pattern } })));
    for (const ok of ['(?i)^abc$', '^[[:alpha:]]+$', '^\\pL+\\z', '^(?P<x>a)$']) expect(withPattern(ok), ok).toEqual([]);
    expect(withPattern('^(?!foo).*$')).toEqual(['spec.validation.openAPIV3Schema.properties[s].pattern: Invalid value: "^(?!foo).*$": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?!`']);
    expect(withPattern('(a)\\1')).toEqual(['spec.validation.openAPIV3Schema.properties[s].pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, but isn\'t: error parsing regexp: invalid escape sequence: `\\1`']);
  });
});
