// Custom resource validation as upstream 1.32's strategy: a tightened schema ratchets (an update may keep what
// the stored object already violates; CEL rules on unchanged values warn), set and map lists refuse duplicates,
// CEL rules run unless a blocking schema error exists, and a root rule's error has upstream's nil field path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const crd = (group: string, max: number, extra = ''): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
${extra}        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: ${max}}
              size: {type: integer}
              tags:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    value: {type: string, maxLength: ${max}}
              words:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              ports: {type: array, items: {type: integer, maximum: ${max * 100}}}
          status:
            type: object
            properties:
              ready: {type: boolean}
`;

const path = (group: string, name = ''): string => `/apis/${group}/v1/namespaces/default/widgets${name ? `/${name}` : ''}`;
const merge = { 'content-type': 'application/merge-patch+json' };

/** POSTs once the CRD's version is served (404 until then). */
async function post(group: string, obj: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const body = { apiVersion: `${group}/v1`, kind: 'Widget', ...obj };
  let r = await s.api('POST', path(group), body);
  for (const deadline = Date.now() + 10_000; r.status === 404 && Date.now() < deadline;) {
    await new Promise((res) => setTimeout(res, 50));
    r = await s.api('POST', path(group), body);
  }
  return r;
}

const causes = (r: { body: any }): string[] => (r.body.details?.causes ?? []).map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);

describe('custom resource validation ratcheting', () => {
  it('lets an update keep what a tightened schema refuses, item by item in map lists, and refuses a change', async () => {
    const group = 'ex.io';
    expect((await s.kubectlWithInput(crd(group, 10), 'apply', '-f', '-')).stderr).toBe('');
    const created = await post(group, {
      metadata: { name: 'w1', labels: { foo: 'bar' } },
      spec: { replicas: 4, tags: [{ name: 'a', value: 'four' }], ports: [400] },
    });
    expect(created.status).toBe(201);
    /** Applies the CRD and waits until a new object with replicas 4 is refused with `expected`. */
    const tighten = async (def: string, expected: string[]): Promise<void> => {
      expect((await s.kubectlWithInput(def, 'apply', '-f', '-')).stderr).toBe('');
      for (const deadline = Date.now() + 10_000; ;) {
        const r = await s.api('POST', `${path(group)}?dryRun=All`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'probe' }, spec: { replicas: 4 } });
        if (r.status === 422 && causes(r).length === expected.length) {
          expect(causes(r)).toEqual(expected);
          return;
        }
        if (Date.now() > deadline) throw new Error('the tightened schema is not served');
        await new Promise((res) => setTimeout(res, 50));
      }
    };
    const maxError = 'spec.replicas: Invalid value: 4: spec.replicas in body should be less than or equal to 3';
    await tighten(crd(group, 3), [maxError]);

    expect((await s.kubectl('label', 'wd', 'w1', 'foo=baz', '--overwrite')).code).toBe(0);
    expect((await s.kubectl('patch', 'wd', 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":true}}')).code).toBe(0);
    // a status update is validated against the status schema alone, named from it (and in 1.32 not ratcheted)
    const status = await s.api('PATCH', `${path(group, 'w1')}/status`, { status: { ready: 'x' } }, merge);
    expect(causes(status)).toEqual(['status.ready: Invalid value: "string": ready in body must be of type boolean: "string"']);
    expect((await s.kubectl('patch', 'wd', 'w1', '--type=merge', '-p', '{"metadata":{"finalizers":["ex.io/hold"]}}')).code).toBe(0);
    expect((await s.kubectl('delete', 'wd', 'w1', '--wait=false')).code).toBe(0);
    // a map list's unchanged item ratchets while another one is added
    const added = await s.api('PATCH', path(group, 'w1'), { spec: { tags: [{ name: 'a', value: 'four' }, { name: 'b', value: 'ok' }] } }, merge);
    expect(added.status).toBe(200);
    const changed = await s.api('PATCH', path(group, 'w1'), { spec: { replicas: 5, tags: [{ name: 'a', value: 'fours' }], ports: [400, 1] } }, merge);
    // a list of no list type ratchets only whole: a changed one is validated item by item (upstream's order is a Go map's)
    expect(causes(changed).sort()).toEqual([
      'spec.ports[0]: Invalid value: 400: spec.ports[0] in body should be less than or equal to 300',
      'spec.replicas: Invalid value: 5: spec.replicas in body should be less than or equal to 3',
      'spec.tags[0].value: Too long: may not be more than 3 bytes',
    ]);

    const rule = `            x-kubernetes-validations:
            - rule: "!has(self.replicas) || self.replicas <= 3"
              fieldPath: .replicas
              message: at most 3 replicas
`;
    await tighten(crd(group, 3).replace('          spec:\n', `          spec:\n${rule}`), [maxError, 'spec.replicas: Invalid value: "object": at most 3 replicas']);
    // a rule failing on an unchanged value warns
    const label = await s.kubectl('label', 'wd', 'w1', 'foo=qux', '--overwrite');
    expect(label.code).toBe(0);
    expect(label.stderr).toContain('Warning: spec.replicas: Invalid value: "object": at most 3 replicas');
    // 1.32's status strategy runs the rules without ratcheting
    const ready = await s.api('PATCH', `${path(group, 'w1')}/status`, { status: { ready: false } }, merge);
    expect(causes(ready)).toEqual(['spec.replicas: Invalid value: "object": at most 3 replicas']);

    expect((await s.kubectl('patch', 'wd', 'w1', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]')).code).toBe(0);
    for (const deadline = Date.now() + 10_000; (await s.api('GET', path(group, 'w1'))).status !== 404;) {
      if (Date.now() > deadline) throw new Error('w1 was not deleted');
      await new Promise((res) => setTimeout(res, 50));
    }
  });

  it('refuses duplicates in set and map lists, unless the stored object had some', async () => {
    const group = 'lists.ex.io';
    expect((await s.kubectlWithInput(crd(group, 10), 'apply', '-f', '-')).stderr).toBe('');
    const r = await post(group, { metadata: { name: 'w' }, spec: { tags: [{ name: 'a' }, { name: 'a', value: 'x' }, { name: 'a' }], words: ['x', 'y', 'x', 'x'] } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Widget.lists.ex.io "w" is invalid: [spec.tags[1]: Duplicate value: map[string]interface {}{"name":"a"}, spec.words[2]: Duplicate value: "x"]');
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueDuplicate', field: 'spec.tags[1]', message: 'Duplicate value: map[string]interface {}{"name":"a"}' },
      { reason: 'FieldValueDuplicate', field: 'spec.words[2]', message: 'Duplicate value: "x"' },
    ]);
    expect((await post(group, { metadata: { name: 'w' }, spec: { words: ['x', 'y'] } })).status).toBe(201);
    const dup = await s.api('PATCH', path(group, 'w'), { spec: { words: ['y', 'y'] } }, merge);
    expect(causes(dup)).toEqual(['spec.words[1]: Duplicate value: "y"']);
  });

  it('runs CEL rules past non-blocking schema errors, not past blocking ones', async () => {
    const group = 'cel.ex.io';
    const rule = `        x-kubernetes-validations:
        - rule: "!has(self.spec.size) || self.spec.size < 100"
          messageExpression: "'size ' + string(self.spec.size) + ' too big'"
`;
    expect((await s.kubectlWithInput(crd(group, 10, rule), 'apply', '-f', '-')).stderr).toBe('');
    const over = await post(group, { metadata: { name: 'w' }, spec: { replicas: 11, size: 100 } });
    expect(causes(over)).toEqual([
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      '<nil>: Invalid value: "object": size 100 too big',
    ]);
    const typed = await post(group, { metadata: { name: 'w' }, spec: { replicas: 'x', size: 100 } });
    expect(typed.body.message).toBe('Widget.cel.ex.io "w" is invalid: [spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]');
  });

  it('gives a root rule\'s error the nil field path', async () => {
    const group = 'root.ex.io';
    const rule = `        x-kubernetes-validations:
        - rule: "self.metadata.name.startsWith('g')"
          messageExpression: "'name ' + self.metadata.name + ' must start with g'"
`;
    expect((await s.kubectlWithInput(crd(group, 10, rule), 'apply', '-f', '-')).stderr).toBe('');
    const r = await post(group, { metadata: { name: 'xg' }, spec: {} });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Widget.root.ex.io "xg" is invalid: <nil>: Invalid value: "object": name xg must start with g');
    expect(r.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: '<nil>', message: 'Invalid value: "object": name xg must start with g' }]);
    expect((await post(group, { metadata: { name: 'gx' }, spec: {} })).status).toBe(201);
  });
});
