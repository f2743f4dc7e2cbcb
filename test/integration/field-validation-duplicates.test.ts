// Repeated fields in request bodies, as upstream's server-side field validation reports them (its integration test
// test/integration/apiserver/field_validation_test.go, whose bodies these are, testdata/field-validation.ts): JSON bodies as `duplicate field
// "spec.paused"` among the unknown fields, YAML bodies as go-yaml's `line 14: key "paused" already set in map`;
// fieldValidation=Strict refuses the request with all of them, Warn (the default) sends a Warning header each and
// goes on with the last value of each field, Ignore says nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvalidDeployment, invalidDeploymentJson, invalidDeploymentYaml } from '../../pkg/apimachinery/testdata/field-validation.js';
import { startTestApiServer, warningsOf, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const GROUP = 'fieldvalidation.example.com';
const CRS = `/apis/${GROUP}/v1/namespaces/default/noxus`;

const validBody = (name: string): string => JSON.stringify({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: 'nginx' } },
  spec: { selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:latest', imagePullPolicy: 'Always' }] } } },
});

const crdInvalidBody = (name: string, resourceVersion = ''): string => `
{
	"apiVersion": "${GROUP}/v1",
	"kind": "Noxu",
	"metadata": {
		"name": "dupename",
		"name": "${name}",
		"unknownMeta": "metaVal",
		"resourceVersion": "${resourceVersion}"
	},
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"knownField1": "val1",
		"knownField1": "val2",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081,
				"hostPort": 8082,
				"unknownNested": "val"
			}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns",
				"unknownEmbeddedMeta": "foo"
			}
		}
	}
}`;

const crdInvalidBodyYAML = (name: string): string => `
apiVersion: "${GROUP}/v1"
kind: "Noxu"
metadata:
  name: dupename
  name: "${name}"
  resourceVersion: ""
  unknownMeta: metaVal
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  knownField1: val1
  knownField1: val2
  ports:
  - name: portName
    containerPort: 8080
    protocol: TCP
    hostPort: 8081
    hostPort: 8082
    unknownNested: val
  embeddedObj:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: my-cm
      namespace: my-ns
      unknownEmbeddedMeta: foo`;

// upstream's wording, in its order
const JSON_ERRORS = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  // a field both unknown and repeated is reported unknown only (built-in kinds decode into Go structs)
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];
const YAML_LINES = [
  'line 5: key "name" already set in map',
  'line 12: key "unknownDupe" already set in map',
  'line 14: key "paused" already set in map',
  'line 28: key "imagePullPolicy" already set in map',
];
const YAML_UNKNOWN = [
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];
const PATCH_ERRORS = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];
const APPLY_LINES = ['line 10: key "paused" already set in map', 'line 27: key "imagePullPolicy" already set in map'];
const CR_DUPLICATES = ['duplicate field "metadata.name"', 'duplicate field "spec.unknownDupe"', 'duplicate field "spec.knownField1"', 'duplicate field "spec.ports[0].hostPort"'];
const CR_YAML_LINES = [
  'line 6: key "name" already set in map',
  'line 12: key "unknownDupe" already set in map',
  'line 14: key "knownField1" already set in map',
  'line 20: key "hostPort" already set in map',
];
// upstream's unstructuredSchemaCoercer: the root metadata's, then the pruned fields' sorted, then embedded metadata's
const CR_UNKNOWN = [
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.ports[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
];

const strictError = (kind: string, errors: string[]): string => `${kind} in version "v1" cannot be handled as a ${kind}: strict decoding error: ${errors.join(', ')}`;
/** A Strict patch's: 422 on the field "patch", quoting what the patch made (upstream's patcher). */
const strictPatchError = (message: string, errors: string[]): void => {
  expect(message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: /s);
  expect(message.endsWith(`: strict decoding error: ${errors.join(', ')}`)).toBe(true);
};
const yamlError = (lines: string[]): string => `yaml: unmarshal errors:\n  ${lines.join('\n  ')}`;

type Validation = 'Strict' | 'Warn' | 'Ignore' | undefined;

async function send(method: string, path: string, body: string, contentType: string, validation: Validation, query = '') {
  const params = [validation ? `fieldValidation=${validation}` : '', query].filter(Boolean).join('&');
  const r = await s.api(method, params ? `${path}?${params}` : path, body, { 'content-type': contentType });
  return { status: r.status, body: r.body, warnings: warningsOf(r.headers) };
}

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
  const port = { type: 'object', required: ['containerPort', 'protocol'], properties: {
    containerPort: { type: 'integer', format: 'int32' }, hostIP: { type: 'string' }, hostPort: { type: 'integer', format: 'int32' },
    name: { type: 'string' }, protocol: { type: 'string' },
  } };
  const crd = await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `noxus.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced', names: { plural: 'noxus', singular: 'noxu', kind: 'Noxu', listKind: 'NoxuItemList' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
          cronSpec: { type: 'string' }, knownField1: { type: 'string' },
          embeddedObj: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { apiversion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } } },
          ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'], items: port },
        } } } } },
      }],
    },
  });
  expect(crd.status).toBe(201);
  const deadline = Date.now() + 20_000;
  while ((await s.api('GET', CRS)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the CRD was never served');
    await new Promise((r) => setTimeout(r, 50));
  }
}, 30_000);

afterAll(async () => {
  await s?.close();
});

describe('repeated fields in a JSON body of a built-in kind', () => {
  it('Strict refuses the POST with every repeated and unknown field, in document order', async () => {
    const r = await send('POST', DEPLOYMENTS, invalidDeploymentJson('post-strict'), 'application/json', 'Strict');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: strictError('Deployment', JSON_ERRORS) });
    expect(r.warnings).toEqual([]);
    expect((await s.api('GET', `${DEPLOYMENTS}/post-strict`)).status).toBe(404);
  });

  it('Warn, the default, creates it with the last value of each field and a warning each', async () => {
    for (const [name, validation] of [['post-warn', 'Warn'], ['post-default', undefined]] as const) {
      const r = await send('POST', DEPLOYMENTS, invalidDeploymentJson(name), 'application/json', validation);
      expect(r.status).toBe(201);
      expect(r.warnings).toEqual(JSON_ERRORS);
      expect(r.body.metadata.name).toBe(name);
      expect(r.body.spec.paused).toBeUndefined(); // the last, false: Go's zero value, omitted
      expect(r.body.spec.template.spec.containers[0].imagePullPolicy).toBe('Never');
    }
  });

  it('Ignore creates it without a word', async () => {
    const r = await send('POST', DEPLOYMENTS, invalidDeploymentJson('post-ignore'), 'application/json', 'Ignore');
    expect(r.status).toBe(201);
    expect(r.warnings).toEqual([]);
    expect(r.body.spec.paused).toBeUndefined(); // the last, false: Go's zero value, omitted
  });

  it('a PUT is checked as a POST', async () => {
    expect((await send('POST', DEPLOYMENTS, validBody('put'), 'application/json', undefined)).status).toBe(201);
    const strict = await send('PUT', `${DEPLOYMENTS}/put`, invalidDeploymentJson('put'), 'application/json', 'Strict');
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(strictError('Deployment', JSON_ERRORS));
    const warn = await send('PUT', `${DEPLOYMENTS}/put`, invalidDeploymentJson('put'), 'application/json', 'Warn');
    expect(warn.status).toBe(200);
    expect(warn.warnings).toEqual(JSON_ERRORS);
    expect(warn.body.spec.paused).toBeUndefined(); // the last, false: Go's zero value, omitted
    const ignore = await send('PUT', `${DEPLOYMENTS}/put`, invalidDeploymentJson('put'), 'application/json', 'Ignore');
    expect([ignore.status, ignore.warnings]).toEqual([200, []]);
  });

  it('a PUT of the scale subresource is decoded as a Scale: repeated, unknown (in document order) and mistyped fields', async () => {
    expect((await send('POST', DEPLOYMENTS, validBody('scaled'), 'application/json', undefined)).status).toBe(201);
    const scale = (spec: string): string => `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"scaled","namespace":"default"},"spec":${spec}}`;
    const strict = await send('PUT', `${DEPLOYMENTS}/scaled/scale`, scale('{"replicas":3,"bogus":1,"replicas":2}'), 'application/json', 'Strict');
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('Scale in version "v1" cannot be handled as a Scale: strict decoding error: unknown field "spec.bogus", duplicate field "spec.replicas"');
    const warn = await send('PUT', `${DEPLOYMENTS}/scaled/scale`, scale('{"replicas":3,"bogus":1,"replicas":2}'), 'application/json', 'Warn');
    expect([warn.status, warn.warnings, warn.body.spec.replicas]).toEqual([200, ['unknown field "spec.bogus"', 'duplicate field "spec.replicas"'], 2]);
    const mistyped = await send('PUT', `${DEPLOYMENTS}/scaled/scale`, scale('{"replicas":"3"}'), 'application/json', 'Ignore');
    expect(mistyped.status).toBe(400);
    expect(mistyped.body.message).toBe('Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32');
    // no replicas is Go's zero value
    const none = await send('PUT', `${DEPLOYMENTS}/scaled/scale`, scale('{}'), 'application/json', 'Strict');
    expect([none.status, none.body.spec?.replicas]).toEqual([200, undefined]);
    expect((await s.api('GET', `${DEPLOYMENTS}/scaled`)).body.spec.replicas).toBe(0);
  });

  it('a pods/binding or pods/eviction body is checked as a Binding or an Eviction', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bound' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    // no controllers here: the ServiceAccount admission plugin needs the account the serviceaccount controller makes
    await s.api('POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    expect((await s.api('POST', '/api/v1/namespaces/default/pods', pod)).status).toBe(201);
    const binding = '{"apiVersion":"v1","kind":"Binding","metadata":{"name":"bound"},"target":{"kind":"Node","name":"n1","name":"n2"},"extra":1}';
    const strict = await send('POST', '/api/v1/namespaces/default/pods/bound/binding', binding, 'application/json', 'Strict');
    expect([strict.status, strict.body.message]).toEqual([400, 'Binding in version "v1" cannot be handled as a Binding: strict decoding error: duplicate field "target.name", unknown field "extra"']);
    const warn = await send('POST', '/api/v1/namespaces/default/pods/bound/binding', binding, 'application/json', 'Warn');
    expect([warn.status, warn.warnings, warn.body.message]).toEqual([201, ['duplicate field "target.name"', 'unknown field "extra"'], undefined]);
    expect((await s.api('GET', '/api/v1/namespaces/default/pods/bound')).body.spec.nodeName).toBe('n2');
    const eviction = '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"bound"},"bogus":true}';
    const refused = await send('POST', '/api/v1/namespaces/default/pods/bound/eviction', eviction, 'application/json', 'Strict');
    expect([refused.status, refused.body.message]).toEqual([400, 'Eviction in version "v1" cannot be handled as a Eviction: strict decoding error: unknown field "bogus"']);
  });
});

describe('repeated keys in a YAML body', () => {
  it('Strict refuses it with go-yaml\'s errors, then the unknown fields', async () => {
    const r = await send('POST', DEPLOYMENTS, invalidDeploymentYaml('yaml-strict'), 'application/yaml', 'Strict');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(strictError('Deployment', [yamlError(YAML_LINES), ...YAML_UNKNOWN]));
  });

  it('Warn warns of each line and creates the object with the last value', async () => {
    for (const [name, validation] of [['yaml-warn', 'Warn'], ['yaml-default', undefined]] as const) {
      const r = await send('POST', DEPLOYMENTS, invalidDeploymentYaml(name), 'application/yaml', validation);
      expect(r.status).toBe(201);
      expect(r.warnings).toEqual([...YAML_LINES, ...YAML_UNKNOWN]);
      expect(r.body.metadata.name).toBe(name);
      expect(r.body.spec.paused).toBeUndefined(); // the last, false: Go's zero value, omitted
      expect(r.body.spec.template.spec.containers[0].imagePullPolicy).toBe('Never');
    }
  });

  it('Ignore creates it (no "Map keys must be unique")', async () => {
    const r = await send('POST', DEPLOYMENTS, invalidDeploymentYaml('yaml-ignore'), 'application/yaml', 'Ignore');
    expect([r.status, r.warnings]).toEqual([201, []]);
    expect(r.body.spec.paused).toBeUndefined(); // the last, false: Go's zero value, omitted
  });
});

describe('repeated fields in patches', () => {
  const smpBody = `{"spec": {"unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true, "paused": false,
    "selector": {"matchLabels": {"app": "nginx"}},
    "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [{
      "name": "nginx", "unknownNested": "val1", "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}}`;
  const nonconflicting = `{"spec": {"paused": true, "paused": false, "template": {"spec": {"containers": [{
    "name": "nginx", "image": "nginx:latest", "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}}`;

  beforeAll(async () => {
    expect((await send('POST', DEPLOYMENTS, validBody('patched'), 'application/json', undefined)).status).toBe(201);
  });

  it('a strategic merge patch\'s repetitions come first, then the unknown fields of the patched object', async () => {
    const strict = await send('PATCH', `${DEPLOYMENTS}/patched`, smpBody, 'application/strategic-merge-patch+json', 'Strict');
    expect(strict.status).toBe(422);
    strictPatchError(strict.body.message, PATCH_ERRORS);
    expect(strict.body.message).toContain('Invalid value: "map[spec:map[paused:false selector:map[matchLabels:map[app:nginx]] template:');
    const warn = await send('PATCH', `${DEPLOYMENTS}/patched`, smpBody, 'application/strategic-merge-patch+json', undefined);
    expect(warn.status).toBe(200);
    expect(warn.warnings).toEqual(PATCH_ERRORS);
    expect(warn.body.spec.paused).toBeUndefined(); // the last, false: Go's zero value, omitted
    expect(warn.body.spec.template.spec.containers[0].imagePullPolicy).toBe('Never');
    const ignore = await send('PATCH', `${DEPLOYMENTS}/patched`, smpBody, 'application/strategic-merge-patch+json', 'Ignore');
    expect([ignore.status, ignore.warnings]).toEqual([200, []]);
  });

  it('a merge patch without unknown fields still fails with Strict for its repetitions', async () => {
    const dups = ['duplicate field "spec.paused"', 'duplicate field "spec.template.spec.containers[0].imagePullPolicy"'];
    const strict = await send('PATCH', `${DEPLOYMENTS}/patched`, nonconflicting, 'application/merge-patch+json', 'Strict');
    expect([strict.status, strict.body.reason, strict.body.details.causes[0].field]).toEqual([422, 'Invalid', 'patch']);
    strictPatchError(strict.body.message, dups);
    expect(strict.body.message).toContain('Invalid value: "{\\"apiVersion\\":\\"apps/v1\\",\\"kind\\":\\"Deployment\\"');
    const warn = await send('PATCH', `${DEPLOYMENTS}/patched`, nonconflicting, 'application/merge-patch+json', 'Warn');
    expect([warn.status, warn.warnings]).toEqual([200, dups]);
  });

  it('a JSON patch\'s operations are checked as {op, path, from, value}', async () => {
    const ops = `[
      {"op": "add", "path": "/spec/unknown1", "value": "val1", "foo": "bar"},
      {"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
      {"op": "add", "path": "/spec/paused", "value": true},
      {"op": "add", "path": "/spec/paused", "value": false}
    ]`;
    const errors = ['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"', 'unknown field "spec.unknown1"', 'unknown field "spec.unknown3"'];
    const warn = await send('PATCH', `${DEPLOYMENTS}/patched`, ops, 'application/json-patch+json', 'Warn');
    expect([warn.status, warn.warnings]).toEqual([200, errors]);
    const strict = await send('PATCH', `${DEPLOYMENTS}/patched`, ops, 'application/json-patch+json', 'Strict');
    expect(strict.status).toBe(422);
    strictPatchError(strict.body.message, errors);
  });
});

describe('repeated keys in a server-side apply configuration', () => {
  it('are reported on their own, as go-yaml words them, and the last value applies', async () => {
    const strict = await send('PATCH', `${DEPLOYMENTS}/apply-strict`, applyInvalidDeployment('apply-strict'), 'application/apply-patch+yaml', 'Strict', 'fieldManager=mgr');
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(`error strict decoding YAML: error converting YAML to JSON: ${yamlError(APPLY_LINES)}`);
    expect((await s.api('GET', `${DEPLOYMENTS}/apply-strict`)).status).toBe(404);

    const warn = await send('PATCH', `${DEPLOYMENTS}/apply-warn`, applyInvalidDeployment('apply-warn'), 'application/apply-patch+yaml', undefined, 'fieldManager=mgr');
    expect(warn.status).toBe(201);
    expect(warn.warnings).toEqual(APPLY_LINES);
    expect(warn.body.spec.paused).toBe(true);
    expect(warn.body.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
    const update = await send('PATCH', `${DEPLOYMENTS}/apply-warn`, applyInvalidDeployment('apply-warn'), 'application/apply-patch+yaml', 'Warn', 'fieldManager=mgr');
    expect([update.status, update.warnings]).toEqual([200, APPLY_LINES]);

    const ignore = await send('PATCH', `${DEPLOYMENTS}/apply-ignore`, applyInvalidDeployment('apply-ignore'), 'application/apply-patch+yaml', 'Ignore', 'fieldManager=mgr');
    expect([ignore.status, ignore.warnings]).toEqual([201, []]);
  });
});

describe('repeated fields of a custom resource (decoded into a map)', () => {
  it('are all reported, unknown ones too, before the unknown fields', async () => {
    const strict = await send('POST', CRS, crdInvalidBody('cr-strict'), 'application/json', 'Strict');
    expect(strict.status).toBe(400);
    expect(strict.body.message).toMatch(/^Noxu in version "v1" cannot be handled as a Noxu: strict decoding error: /);
    const warn = await send('POST', CRS, crdInvalidBody('cr-warn'), 'application/json', 'Warn');
    expect(warn.status).toBe(201);
    expect(warn.warnings.slice(0, 4)).toEqual(CR_DUPLICATES);
    expect(warn.warnings.slice(4)).toEqual(CR_UNKNOWN);
    expect(strict.body.message).toBe(strictError('Noxu', warn.warnings));
    expect(warn.body.metadata.name).toBe('cr-warn');
    expect(warn.body.spec).toMatchObject({ knownField1: 'val2', ports: [{ hostPort: 8082 }] });
    const ignore = await send('POST', CRS, crdInvalidBody('cr-ignore'), 'application/json', 'Ignore');
    expect([ignore.status, ignore.warnings]).toEqual([201, []]);
  });

  it('in YAML, as go-yaml\'s lines; a PUT as a POST', async () => {
    const warn = await send('POST', CRS, crdInvalidBodyYAML('cr-yaml'), 'application/yaml', 'Warn');
    expect(warn.status).toBe(201);
    expect(warn.warnings.slice(0, 4)).toEqual(CR_YAML_LINES);
    expect(warn.warnings.slice(4)).toEqual(CR_UNKNOWN);
    const strict = await send('POST', CRS, crdInvalidBodyYAML('cr-yaml-strict'), 'application/yaml', 'Strict');
    expect(strict.body.message).toBe(strictError('Noxu', [yamlError(CR_YAML_LINES), ...warn.warnings.slice(4)]));

    const put = await send('PUT', `${CRS}/cr-warn`, crdInvalidBody('cr-warn', (await s.api('GET', `${CRS}/cr-warn`)).body.metadata.resourceVersion), 'application/json', undefined);
    expect(put.status).toBe(200);
    expect(put.warnings.slice(0, 4)).toEqual(CR_DUPLICATES);
  });
});
