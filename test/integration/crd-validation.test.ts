// CRD validation through the real kubectl: a bad CustomResourceDefinition is refused with upstream's 422 causes
// (structural schema, list types, rule compilation and cost), an update ratchets and keeps the scope immutable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const crd = (schema: string, extra = ''): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
${extra}    schema:
      openAPIV3Schema:
${schema}`;

describe('CustomResourceDefinition validation', () => {
  it('refuses a non-structural schema with upstream text', async () => {
    const r = await s.kubectlWithInput(crd(`        type: object
        properties:
          spec:
            properties:
              replicas: {type: integer, default: "one"}
          items:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [name]
            items: {type: object, properties: {name: {type: string}}}
`), 'apply', '-f', '-');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The CustomResourceDefinition "gadgets.example.com" is invalid');
    expect(r.stderr).toContain('spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields');
    expect(r.stderr).toContain('spec.validation.openAPIV3Schema.properties[items].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property');
  });

  it('refuses uncompilable and too expensive rules, and a scale path outside .spec', async () => {
    const r = await s.kubectlWithInput(crd(`        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.name.startsWith("
            - rule: "self.tags.all(a, self.tags.all(b, a.matches(b)))"
            properties:
              name: {type: string}
              tags: {type: array, items: {type: string}}
          status: {type: object, properties: {replicas: {type: integer}}}
`, `    subresources:
      scale: {specReplicasPath: .replicas, statusReplicasPath: .status.replicas}
`), 'apply', '-f', '-');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.name.startsWith("');
    expect(r.stderr).toContain('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x');
    expect(r.stderr).toContain('spec.subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec');
  });

  it('accepts a cheap rule on objects inside two lists without maxItems (prometheus-operator\'s sigv4) and runs it', async () => {
    // upstream charges it once per smallest object that fits in a request, not per product of the lists' estimates
    const receivers = crd(`        type: object
        properties:
          spec:
            type: object
            properties:
              a:
                type: array
                items:
                  type: object
                  properties:
                    b:
                      type: array
                      items:
                        type: object
                        properties:
                          c:
                            type: object
                            properties:
                              externalId: {type: string}
                              roleArn: {type: string}
                            x-kubernetes-validations:
                            - rule: "!has(self.externalId) || has(self.roleArn)"
                              message: externalId requires roleArn
`).replace(/gadget/g, 'receiver').replace(/Gadget/g, 'Receiver');
    const ok = await s.kubectlWithInput(receivers, 'apply', '-f', '-');
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const cr = (c: string) => `apiVersion: example.com/v1\nkind: Receiver\nmetadata: {name: r, namespace: default}\nspec: {a: [{b: [{c: ${c}}]}]}\n`;
    const deadline = Date.now() + 10_000;
    let bad = await s.kubectlWithInput(cr('{externalId: x}'), 'create', '-f', '-');
    // the kind is served once the CRD is established
    while (bad.stderr.includes('no matches for kind') && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 50));
      bad = await s.kubectlWithInput(cr('{externalId: x}'), 'create', '-f', '-');
    }
    expect(bad.stderr).toContain('spec.a[0].b[0].c: Invalid value: "object": externalId requires roleArn');
    const good = await s.kubectlWithInput(cr('{externalId: x, roleArn: "arn:aws:iam::1:role/r"}'), 'create', '-f', '-');
    expect(good.stderr).toBe('');
    await s.kubectl('delete', 'crd', 'receivers.example.com', '--wait=false');
  });

  it('refuses rules that do not type-check against the schema, as cel-go words it', async () => {
    const r = await s.kubectlWithInput(crd(`        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.replicas.startsWith('a')"
            - rule: "size(self.replicas) > 0"
            - rule: "self.replicas in self.tags"
            - rule: "self.name in [1, 'a']"
            - rule: "(self.replicas > 1 ? self.replicas : self.name) == 1"
            properties:
              name: {type: string, maxLength: 10}
              replicas: {type: integer}
              tags: {type: array, maxItems: 10, items: {type: string, maxLength: 10}}
`), 'apply', '-f', '-');
    expect(r.code).not.toBe(0);
    const rule = (i: number) => `spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[${i}].rule: Invalid value: apiextensions.ValidationRule{Rule:`;
    expect(r.stderr).toContain(`${rule(0)}"self.replicas.startsWith('a')"`);
    expect(r.stderr).toContain("compilation failed: ERROR: <input>:1:25: found no matching overload for 'startsWith' applied to 'int.(string)'");
    expect(r.stderr).toContain("compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'");
    expect(r.stderr).toContain("compilation failed: ERROR: <input>:1:15: found no matching overload for '@in' applied to '(int, list(string))'");
    expect(r.stderr).toContain("compilation failed: ERROR: <input>:1:18: expected type 'int' but found 'string'");
    expect(r.stderr).toContain("compilation failed: ERROR: <input>:1:20: found no matching overload for '_?_:_' applied to '(bool, int, string)'");
    expect(r.stderr).toContain(rule(4));
  });

  it('refuses optional selections of undeclared fields at create and update, pointing into the rule as written', async () => {
    const schema = (rule: string) => crd(`        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "${rule}"
            properties:
              name: {type: string, maxLength: 10}
              replicas: {type: integer}
`);
    const bad = await s.kubectlWithInput(schema("self.?nmae.orValue('') != 'x'"), 'apply', '-f', '-');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('The CustomResourceDefinition "gadgets.example.com" is invalid');
    expect(bad.stderr).toContain("compilation failed: ERROR: <input>:1:5: undefined field 'nmae'\n | self.?nmae.orValue('') != 'x'\n | ....^");
    const ok = await s.kubectlWithInput(schema("self.?name.orValue('') != 'x'"), 'apply', '-f', '-');
    expect(ok.stderr).toBe('');
    const update = await s.kubectlWithInput(schema("self.?name.orValue('') != 'x' && self.replicas.startsWith('a')"), 'apply', '-f', '-');
    expect(update.code).not.toBe(0);
    expect(update.stderr).toContain("compilation failed: ERROR: <input>:1:58: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.?name.orValue('') != 'x' && self.replicas.startsWith('a')\n | .........................................................^");
    await s.kubectl('delete', 'crd', 'gadgets.example.com', '--wait=false');
  });

  it('accepts a sound CRD and keeps its scope immutable once established', async () => {
    const good = crd(`        type: object
        properties:
          spec:
            type: object
            properties:
              tags: {type: array, maxItems: 10, items: {type: string, maxLength: 20}}
            x-kubernetes-validations:
            - rule: "self.tags.all(a, self.tags.all(b, a == b || !a.matches(b)))"
`);
    const ok = await s.kubectlWithInput(good, 'apply', '-f', '-');
    expect(ok.stderr).toBe('');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const st = await s.kubectl('get', 'crd', 'gadgets.example.com', '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}');
      if (st.stdout === 'True') break;
      if (Date.now() > deadline) throw new Error('not established');
      await new Promise((res) => setTimeout(res, 50));
    }
    const r = await s.kubectlWithInput(good.replace('scope: Namespaced', 'scope: Cluster'), 'apply', '-f', '-');
    expect(r.stderr).toContain('spec.scope: Invalid value: "Cluster": field is immutable');
  });

  it('validates custom resources with the Kubernetes CEL libraries', async () => {
    const lib = crd(`        type: object
        properties:
          spec:
            type: object
            properties:
              endpoint: {type: string, maxLength: 256}
              memory: {type: string, maxLength: 32}
              subnet: {type: string, maxLength: 64}
              ports: {type: array, maxItems: 16, items: {type: integer}}
              limit: {type: integer}
              max-replicas: {type: integer}
              namespace: {type: string, maxLength: 63}
            x-kubernetes-validations:
            - rule: "!has(self.max__dash__replicas) || self.max__dash__replicas <= 5"
              message: max-replicas at most 5
            - rule: "self.?__namespace__.orValue('') != 'kube-system'"
              message: not in kube-system
            - rule: "self.?limit.orValue(0) <= 10 && [?self.?limit, 1].size() >= 1"
              message: limit at most 10
            - rule: "url(self.endpoint).getScheme() == 'https'"
              message: endpoint must use https
            - rule: "quantity(self.memory).compareTo(quantity('1Gi')) <= 0"
              messageExpression: "'memory ' + self.memory + ' exceeds 1Gi'"
            - rule: "cidr('10.0.0.0/8').containsCIDR(self.subnet)"
              reason: FieldValueForbidden
              fieldPath: .subnet
              message: subnet outside 10.0.0.0/8
            - rule: "self.ports.isSorted() && self.ports.sum() < 100000"
              message: ports must be sorted
`).replace('gadgets.example.com', 'widgets.example.com').replace('group: example.com', 'group: example.com').replace(/gadget/g, 'widget').replace(/Gadget/g, 'Widget');
    expect((await s.kubectlWithInput(lib, 'apply', '-f', '-')).stderr).toBe('');
    const cr = (spec: string): string => `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: ${spec}\n`;
    const deadline = Date.now() + 10_000;
    let r = await s.kubectlWithInput(cr('{endpoint: "https://a.example", memory: 512Mi, subnet: 10.1.0.0/16, ports: [80, 443], max-replicas: 5, namespace: team}'), 'apply', '-f', '-');
    while (r.code !== 0 && /the server could not find the requested resource|no matches for kind/.test(r.stderr) && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 100));
      r = await s.kubectlWithInput(cr('{endpoint: "https://a.example", memory: 512Mi, subnet: 10.1.0.0/16, ports: [80, 443], max-replicas: 5, namespace: team}'), 'apply', '-f', '-');
    }
    expect(r.stderr).toBe('');
    const bad = await s.kubectlWithInput(cr('{endpoint: "http://a.example", memory: 2Gi, subnet: 192.168.0.0/16, ports: [443, 80], limit: 11, max-replicas: 6, namespace: kube-system}'), 'apply', '-f', '-');
    expect(bad.stderr).toContain('spec: Invalid value: "object": max-replicas at most 5');
    expect(bad.stderr).toContain('spec: Invalid value: "object": not in kube-system');
    expect(bad.stderr).toContain('spec: Invalid value: "object": limit at most 10');
    expect(bad.stderr).toContain('The Widget "w" is invalid');
    expect(bad.stderr).toContain('spec: Invalid value: "object": endpoint must use https');
    expect(bad.stderr).toContain('spec: Invalid value: "object": memory 2Gi exceeds 1Gi');
    expect(bad.stderr).toContain('spec.subnet: Forbidden: subnet outside 10.0.0.0/8');
    expect(bad.stderr).toContain('spec: Invalid value: "object": ports must be sorted');
  });
  it('runs optionalOldSelf rules on create (oldSelf none) and update (an optional); messageExpressions read oldSelf', async () => {
    const def = crd(`        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, maxLength: 20}
              size: {type: integer}
            x-kubernetes-validations:
            - rule: "oldSelf.hasValue() || self.name.startsWith('a')"
              optionalOldSelf: true
              message: a new name starts with a
            - rule: "self.name == oldSelf.orValue(self).name"
              optionalOldSelf: true
              messageExpression: "'name was ' + oldSelf.value().name"
            - rule: "self.size >= oldSelf.size"
              messageExpression: "'size was ' + string(oldSelf.size)"
`).replace(/gadget/g, 'doodad').replace(/Gadget/g, 'Doodad');
    const created = await s.kubectlWithInput(def, 'apply', '-f', '-');
    expect(created.stderr).toBe('');
    const path = '/apis/example.com/v1/namespaces/default/doodads';
    const post = (name: string) => s.api('POST', path, { apiVersion: 'example.com/v1', kind: 'Doodad', metadata: { name: 'd' }, spec: { name, size: 2 } });
    let first = await post('bc');
    for (const deadline = Date.now() + 10_000; first.status === 404 && Date.now() < deadline;) {
      await new Promise((res) => setTimeout(res, 50));
      first = await post('bc');
    }
    expect(first.body.details?.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "object": a new name starts with a' }]);
    expect((await post('ab')).status).toBe(201);
    const put = await s.api('PATCH', `${path}/d`, { spec: { name: 'bc', size: 1 } }, { 'content-type': 'application/merge-patch+json' });
    expect(put.body.details?.causes?.map((c: { message: string }) => c.message)).toEqual(['Invalid value: "object": name was ab', 'Invalid value: "object": size was 2']);
    expect((await s.api('PATCH', `${path}/d`, { spec: { size: 3 } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
  });

  it('reports a printer column\'s missing name once, at the hoisted path, and takes a version without served as not served', async () => {
    const body = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'columns.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'columns', kind: 'Column' },
        versions: [{ name: 'v1', storage: true, schema: { openAPIV3Schema: { type: 'object' } }, additionalPrinterColumns: [{ type: 'string', jsonPath: '.a' }] }],
      },
    };
    const r = await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body);
    expect(r.body.details.causes).toEqual([{ reason: 'FieldValueRequired', field: 'spec.additionalPrinterColumns[0].name', message: 'Required value' }]);
    body.spec.versions[0]!.additionalPrinterColumns[0] = { name: 'A', type: 'string', jsonPath: '.a' } as never;
    const ok = await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body);
    expect(ok.status).toBe(201);
  });
});
