// CustomResourceDefinitions through the real kubectl over HTTPS: a CRD with a schema, CEL rules, defaults,
// status and scale subresources and printer columns is served at once; its objects are validated, pruned and
// defaulted as upstream; deleting the CRD removes its objects and stops serving it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const ok = async (...args: string[]): Promise<string> => (await succeeded(s.kubectl(...args), args)).stdout;

async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const CRONTAB_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    selectableFields:
    - jsonPath: .spec.color
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.labelSelector
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: The desired schedule.
            x-kubernetes-validations:
            - rule: "self.replicas <= self.maxReplicas"
              message: replicas must not exceed maxReplicas
            - rule: "!has(oldSelf.cronSpec) || self.cronSpec.size() >= 1"
            required: [cronSpec]
            properties:
              cronSpec:
                type: string
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
                default: nginx
              replicas:
                type: integer
                minimum: 0
                maximum: 10
                default: 1
              maxReplicas:
                type: integer
                default: 5
              color:
                type: string
                enum: [red, blue]
              port:
                x-kubernetes-int-or-string: true
              labels:
                type: object
                additionalProperties:
                  type: string
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              replicas:
                type: integer
              labelSelector:
                type: string
`;

const crontab = (name: string, spec: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
${spec}`;

describe('custom resource definitions', () => {
  it('serves a CRD as soon as it is created: established, discovered, listed with its printer columns', async () => {
    const created = await s.kubectlWithInput(CRONTAB_CRD, 'apply', '-f', '-');
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    await ok('wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com');
    const crd = JSON.parse(await ok('get', 'crd', 'crontabs.stable.example.com', '-o', 'json'));
    expect(crd.status.acceptedNames).toMatchObject({ plural: 'crontabs', kind: 'CronTab', listKind: 'CronTabList' });
    expect(crd.status.storedVersions).toEqual(['v1']);
    expect(crd.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`)).toEqual(['NamesAccepted=True', 'Established=True']);
    expect(await ok('api-resources', '--api-group=stable.example.com')).toMatch(/crontabs\s+ct\s+stable.example.com\/v1\s+true\s+CronTab/);

    const r = await s.kubectlWithInput(crontab('a', '  cronSpec: "* * * * */5"\n  replicas: 2\n'), 'apply', '-f', '-');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('crontab.stable.example.com/a created');
    const table = await ok('get', 'crontabs');
    expect(table.split('\n')[0]).toMatch(/^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
    expect(table).toMatch(/^a\s+\* \* \* \* \*\/5\s+2\s+\d+s$/m);
    expect(await ok('get', 'ct', 'a', '-o', 'name')).toBe('crontab.stable.example.com/a\n');
    expect(await ok('get', 'all', '-o', 'name')).toContain('crontab.stable.example.com/a');
    // unlike a built-in kind's, a custom resource's list items keep their kind and apiVersion (upstream's unstructured lists)
    const list = (await s.api('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs')).body;
    expect(list.items.map((i: { kind: string; apiVersion: string }) => `${i.apiVersion} ${i.kind}`)).toEqual(['stable.example.com/v1 CronTab']);
  });

  it('applies defaults, prunes unknown fields, keeps preserved ones and int-or-string values', async () => {
    const r = await s.kubectlWithInput(crontab('b', '  cronSpec: "* * * * *"\n  unknown: 1\n  port: 8080\n  extra: {anything: [1, 2]}\n'), 'create', '-f', '-', '--validate=false');
    expect(r.stderr).toBe('');
    const obj = JSON.parse(await ok('get', 'crontab', 'b', '-o', 'json'));
    expect(obj.spec).toEqual({ cronSpec: '* * * * *', image: 'nginx', replicas: 1, maxReplicas: 5, port: 8080, extra: { anything: [1, 2] } });
    expect(obj.metadata.generation).toBe(1);
    const strict = await s.kubectlWithInput(crontab('c', '  cronSpec: "* * * * *"\n  unknown: 1\n'), 'create', '-f', '-', '--validate=strict');
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.unknown"');
  });

  it('refuses invalid objects with upstream\'s causes', async () => {
    const r = await s.kubectlWithInput(crontab('bad', '  replicas: 11\n  color: pink\n  cronSpec: "nope"\n'), 'create', '-f', '-');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The CronTab "bad" is invalid');
    expect(r.stderr).toContain('spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10');
    expect(r.stderr).toContain('spec.color: Unsupported value: "pink": supported values: "red", "blue"');
    expect(r.stderr).toContain('spec.cronSpec: Invalid value: "nope": spec.cronSpec in body should match');
    const missing = await s.kubectlWithInput(crontab('bad2', '  replicas: 1\n'), 'create', '-f', '-');
    expect(missing.stderr).toContain('spec.cronSpec: Required value');
    const typed = await s.kubectlWithInput(crontab('bad3', '  cronSpec: "* * * * *"\n  replicas: "x"\n'), 'create', '-f', '-', '--validate=false');
    expect(typed.stderr).toContain('spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"');
    const cel = await s.kubectlWithInput(crontab('bad4', '  cronSpec: "* * * * *"\n  replicas: 7\n  maxReplicas: 6\n'), 'create', '-f', '-');
    expect(cel.stderr).toContain('spec: Invalid value: "object": replicas must not exceed maxReplicas');
  });

  it('bumps generation on spec changes only; status and scale subresources; kubectl scale', async () => {
    await ok('patch', 'crontab', 'a', '--type=merge', '-p', '{"metadata":{"labels":{"x":"y"}}}');
    expect(JSON.parse(await ok('get', 'crontab', 'a', '-o', 'json')).metadata.generation).toBe(1);
    await ok('patch', 'crontab', 'a', '--type=merge', '-p', '{"spec":{"replicas":3},"status":{"replicas":9}}');
    let obj = JSON.parse(await ok('get', 'crontab', 'a', '-o', 'json'));
    expect(obj.metadata.generation).toBe(2);
    expect(obj.status).toBeUndefined();
    await ok('patch', 'crontab', 'a', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":3,"labelSelector":"app=a"}}');
    obj = JSON.parse(await ok('get', 'crontab', 'a', '-o', 'json'));
    expect(obj.status).toEqual({ replicas: 3, labelSelector: 'app=a' });
    expect(obj.metadata.generation).toBe(2);
    expect(await ok('scale', 'crontab', 'a', '--replicas=4')).toContain('crontab.stable.example.com/a scaled');
    obj = JSON.parse(await ok('get', 'crontab', 'a', '-o', 'json'));
    expect(obj.spec.replicas).toBe(4);
    const scale = await s.api('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/a/scale');
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 4 }, status: { replicas: 3, selector: 'app=a' } });
    // as upstream's custom resource ScaleREST: the CRD's printer columns, read from the Scale (no cronSpec: a nil cell)
    expect((await ok('get', 'crontab', 'a', '--subresource=scale')).split('\n')[0]!.split(/\s+/)).toEqual(['NAME', 'SPEC', 'REPLICAS', 'AGE']);
    const table = await s.api('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/a/scale', undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect((table.body as { rows: { cells: unknown[] }[] }).rows[0]!.cells.slice(0, 3)).toEqual(['a', null, 4]);
    const tooMany = await s.kubectl('scale', 'crontab', 'a', '--replicas=12');
    expect(tooMany.stderr).toContain('spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10');
    const smp = await s.api('PATCH', '/apis/stable.example.com/v1/namespaces/default/crontabs/a', '{"spec":{"replicas":1}}', { 'content-type': 'application/strategic-merge-patch+json' });
    expect(smp.status).toBe(415);
  });

  it('refuses a strategic merge patch of the resource and its subresources before reading the body, as upstream\'s crdHandler', async () => {
    const accepted = 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs/a';
    for (const [url, body] of [[`${path}/scale`, '{"spec":{"replicas":3}}'], [`${path}/status`, '{"status":{}}'], [path, '{"spec":'], [`${path}/scale`, '{']]) {
      const r = await s.api('PATCH', url!, body, { 'content-type': 'application/strategic-merge-patch+json' });
      expect([url, r.status, r.body]).toEqual([url, 415, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: accepted, reason: 'UnsupportedMediaType', code: 415 }]);
    }
    // kubectl patch's default type: its error names the type and the CR's kind
    const r = await s.kubectl('patch', 'crontab', 'a', '--subresource=scale', '-p', '{"spec":{"replicas":3}}');
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(`error: application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab: ${accepted}`);
    expect(JSON.parse(await ok('get', 'crontab', 'a', '-o', 'json')).spec.replicas).not.toBe(3);
  });

  it('selects by the CRD\'s selectableFields', async () => {
    const r = await s.kubectlWithInput(crontab('red1', '  cronSpec: "* * * * *"\n  color: red\n'), 'create', '-f', '-');
    expect(r.stderr).toBe('');
    expect(await ok('get', 'crontabs', '--field-selector', 'spec.color=red', '-o', 'name')).toBe('crontab.stable.example.com/red1\n');
    expect(await ok('get', 'crontabs', '--field-selector', 'spec.color!=red,metadata.name=a', '-o', 'name')).toBe('crontab.stable.example.com/a\n');
    const bad = await s.kubectl('get', 'crontabs', '--field-selector', 'spec.image=nginx');
    expect(bad.stderr).toContain('field label not supported: spec.image');
  });

  it('server-side apply records managed fields', async () => {
    const r = await s.kubectlWithInput(crontab('ssa', '  cronSpec: "* * * * *"\n  labels: {a: b}\n'), 'apply', '--server-side', '--field-manager=tester', '-f', '-');
    expect(r.stderr).toBe('');
    const obj = JSON.parse(await ok('get', 'crontab', 'ssa', '-o', 'json', '--show-managed-fields'));
    const mf = obj.metadata.managedFields.find((m: { manager: string }) => m.manager === 'tester');
    expect(mf).toMatchObject({ operation: 'Apply', apiVersion: 'stable.example.com/v1' });
    expect(mf.fieldsV1['f:spec']).toMatchObject({ 'f:cronSpec': {}, 'f:labels': { 'f:a': {} } });
  });

  it('a create owns the spec it wrote with the spec\'s own path, /status the status it adds (a custom resource\'s zero object is empty)', async () => {
    expect((await s.kubectlWithInput(crontab('mf', '  cronSpec: "* * * * *"\n  labels: {a: b}\n  extra: {x: {z: 1}}\n'), 'create', '-f', '-')).stderr).toBe('');
    await ok('patch', 'crontab', 'mf', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":1}}');
    const obj = JSON.parse(await ok('get', 'crontab', 'mf', '-o', 'json', '--show-managed-fields'));
    const byManager = Object.fromEntries(obj.metadata.managedFields.map((m: { manager: string; fieldsV1: unknown }) => [m.manager, m.fieldsV1]));
    expect(byManager['kubectl-create']).toEqual({
      'f:spec': {
        '.': {}, 'f:cronSpec': {}, 'f:extra': { '.': {}, 'f:x': { '.': {}, 'f:z': {} } }, 'f:image': {}, 'f:labels': { '.': {}, 'f:a': {} },
        'f:maxReplicas': {}, 'f:replicas': {},
      },
    });
    expect(byManager['kubectl-patch']).toEqual({ 'f:status': { '.': {}, 'f:replicas': {} } });
  });

  it('explains the kind from its schema', async () => {
    const out = await ok('explain', 'crontab.spec');
    expect(out).toContain('KIND:       CronTab');
    expect(out).toContain('The desired schedule.');
    expect(out).toContain('replicas');
  });

  it('publishes the kind in aggregated discovery and OpenAPI v3', async () => {
    const agg = await s.api('GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    const group = agg.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'stable.example.com');
    expect(group.versions[0].resources[0]).toMatchObject({ resource: 'crontabs', scope: 'Namespaced', shortNames: ['ct'], categories: ['all'], responseKind: { kind: 'CronTab' } });
    expect(group.versions[0].resources[0].subresources.map((x: { subresource: string }) => x.subresource)).toEqual(['scale', 'status']);
    const v3 = await s.api('GET', '/openapi/v3/apis/stable.example.com/v1');
    expect(v3.body.components.schemas['com.example.stable.v1.CronTab'].properties.spec.properties.replicas).toMatchObject({ type: 'integer', maximum: 10 });
  });

  it('refuses a CRD whose names clash with another one through NamesAccepted=False', async () => {
    const clash = CRONTAB_CRD.replace('name: crontabs.stable.example.com', 'name: crontabs2.stable.example.com').replace('plural: crontabs', 'plural: crontabs2').replace('singular: crontab', 'singular: crontab2').replace('shortNames: [ct]', 'shortNames: [ct2]');
    expect((await s.kubectlWithInput(clash, 'apply', '-f', '-')).code).toBe(0);
    await eventually(async () => {
      const crd = JSON.parse(await ok('get', 'crd', 'crontabs2.stable.example.com', '-o', 'json'));
      return crd.status?.conditions?.some((c: { type: string; status: string; reason: string }) => c.type === 'NamesAccepted' && c.status === 'False' && c.reason === 'ListKindConflict') ?? false;
    });
    expect((await s.api('GET', '/apis/stable.example.com/v1/crontabs2')).status).toBe(404);
    await ok('delete', 'crd', 'crontabs2.stable.example.com');
  });

  it('a change of the CRD\'s spec is served without a moment of 404 in between, with its new printer columns', async () => {
    let polling = true;
    const statuses = new Set<number>();
    const poll = Promise.all([1, 2, 3, 4].map(async () => {
      while (polling) statuses.add((await s.api('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/a')).status);
    }));
    const changed = CRONTAB_CRD.replace('    - name: Age\n', '    - name: Color\n      type: string\n      jsonPath: .spec.color\n    - name: Age\n');
    expect((await s.kubectlWithInput(changed, 'apply', '-f', '-')).code).toBe(0);
    await eventually(async () => (await ok('get', 'crontabs', 'red1')).includes('COLOR'));
    polling = false;
    await poll;
    expect([...statuses]).toEqual([200]);
  });

  it('a subresource the CRD does not define is NotFound for the object, as upstream\'s crdHandler answers', async () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
    const created = await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    expect(created.status).toBe(201);
    // the create response's status as Go writes it before the controller fills it (no omitempty on its fields)
    expect(created.body.status).toEqual({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    await eventually(async () => (await s.api('GET', '/apis/example.com/v1/namespaces/default/gadgets')).status === 200);
    expect((await s.api('POST', '/apis/example.com/v1/namespaces/default/gadgets', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } })).status).toBe(201);
    for (const sub of ['status', 'scale', 'foo']) {
      const r = await s.api('GET', `/apis/example.com/v1/namespaces/default/gadgets/g1/${sub}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gadgets.example.com "g1" not found', reason: 'NotFound', details: { name: 'g1', group: 'example.com', kind: 'gadgets' }, code: 404 });
    }
    expect((await s.kubectl('get', 'gadget', 'g1', '--subresource=status')).stderr).toContain('Error from server (NotFound): gadgets.example.com "g1" not found');
    // what the crdHandler does not serve goes on to the not-found handler: Go's plain-text 404
    for (const path of ['/apis/example.com/v1/namespaces/default/doodads', '/apis/example.com/v2/namespaces/default/gadgets/g1']) {
      const r = await s.api('GET', path);
      expect([path, r.status, r.headers['content-type'], r.body]).toEqual([path, 404, 'text/plain; charset=utf-8', '404 page not found\n']);
    }
    await ok('delete', 'crd', 'gadgets.example.com', '--timeout=30s');
  });

  it('deleting the CRD deletes its objects and stops serving it', async () => {
    expect(await ok('delete', 'crd', 'crontabs.stable.example.com', '--timeout=30s')).toContain('deleted');
    await eventually(async () => (await s.api('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs')).status === 404);
    const leftovers = await s.api('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    expect(leftovers.body.items).toEqual([]);
    const again = await s.kubectl('get', 'crontabs');
    expect(again.code).not.toBe(0);
  });
});
