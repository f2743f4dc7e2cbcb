// ValidatingAdmissionPolicy type checking through the real kubectl: the policy status controller (in this process)
// checks each validation against the schemas of the kinds the policy matches (built-in and custom) and of its
// paramKind, and `kubectl get -o yaml` shows status.observedGeneration and typeChecking.expressionWarnings worded
// as upstream's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, eventually, startInProcess } from './controllers-support.js';

let s: TestApiServer;
let cm: { stop(): Promise<void> };

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  cm = await startInProcess(await controllerManagerKubeconfig(s), { controllers: ['validatingadmissionpolicy-status'] });
}, 30_000);

afterAll(async () => {
  await cm?.stop();
  await s?.close();
});

const AR = 'admissionregistration.k8s.io/v1';
const apply = async (obj: unknown): Promise<void> => {
  const r = await s.kubectlWithInput(JSON.stringify(obj), 'apply', '-f', '-');
  expect(r.stderr).toBe('');
};
const policy = (name: string, spec: Record<string, unknown>) => ({ apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec });
const rules = (apiGroups: string[], resources: string[]) => ({ resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups, apiVersions: ['v1'], resources }] });

/** The policy as `kubectl get -o json` shows it once the controller has observed `generation`. */
const statusOf = (name: string, generation: number): Promise<Record<string, any>> => eventually(async () => {
  const r = await s.kubectl('get', 'validatingadmissionpolicy', name, '-o', 'json');
  return JSON.parse(r.stdout || '{}') as Record<string, any>;
}, (p) => p.status?.observedGeneration === generation, `${name} observed at generation ${generation}`);

describe('ValidatingAdmissionPolicy type checking', () => {
  it('warns of expressions that do not check against the matched kinds, and clears them once fixed', async () => {
    const spec = {
      matchConstraints: rules(['apps'], ['deployments', 'replicasets', 'deployments/scale']),
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
      validations: [
        { expression: 'object.spec.replicas <= 5 && variables.replicas >= 0 && object.metadata.labels["a"] == "b"' },
        { expression: 'object.spec.replicass <= 5', messageExpression: 'object.metadata.name + 1' },
        { expression: "variables.replicas == 'x' || request.operation == 'CREATE'" },
      ],
    };
    await apply(policy('replicas', spec));
    const p = await statusOf('replicas', 1);
    const kinds = ['apps/v1, Kind=Deployment', 'apps/v1, Kind=ReplicaSet'];
    expect(p.status.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: kinds.map((k) => `${k}: ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass <= 5\n | ...........^\n`).join('\n') },
      { fieldRef: 'spec.validations[1].messageExpression', warning: kinds.map((k) => `${k}: ERROR: <input>:1:22: found no matching overload for '_+_' applied to '(string, int)'\n | object.metadata.name + 1\n | .....................^\n`).join('\n') },
      { fieldRef: 'spec.validations[2].expression', warning: kinds.map((k) => `${k}: ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, string)'\n | variables.replicas == 'x' || request.operation == 'CREATE'\n | ...................^\n`).join('\n') },
    ]);
    const yaml = await s.kubectl('get', 'validatingadmissionpolicy', 'replicas', '-o', 'yaml');
    expect(yaml.stdout).toContain('observedGeneration: 1');
    expect(yaml.stdout).toContain('fieldRef: spec.validations[1].expression');

    await apply(policy('replicas', { ...spec, validations: [spec.validations[0]] }));
    const fixed = await statusOf('replicas', 2);
    expect(fixed.status.typeChecking?.expressionWarnings).toBeUndefined();
  });

  it('types params by the paramKind\'s schema and custom resources by their CRD', async () => {
    await apply({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'limits.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'limits', singular: 'limit', kind: 'Limit', listKind: 'LimitList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { max: { type: 'integer' }, owner: { type: 'string' } } } } } } }],
      },
    });
    await eventually(async () => (await s.kubectl('get', 'limits')).code, (code) => code === 0, 'the Limit kind served');
    await apply(policy('limited', {
      paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' },
      matchConstraints: { resourceRules: [...rules([''], ['configmaps']).resourceRules, ...rules(['example.com'], ['limits']).resourceRules] },
      validations: [
        { expression: 'params.spec.max > 0 && object.metadata.name != params.spec.owner' },
        { expression: 'params.spec.maximum > 0' },
        { expression: "object.spec.max > 0 || object.data['x'] == 'y'" },
      ],
    }));
    const p = await statusOf('limited', 1);
    expect(p.status.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: ["/v1, Kind=ConfigMap", 'example.com/v1, Kind=Limit'].map((k) => `${k}: ERROR: <input>:1:12: undefined field 'maximum'\n | params.spec.maximum > 0\n | ...........^\n`).join('\n') },
      { fieldRef: 'spec.validations[2].expression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.max > 0 || object.data['x'] == 'y'\n | ......^\n\nexample.com/v1, Kind=Limit: ERROR: <input>:1:30: undefined field 'data'\n | object.spec.max > 0 || object.data['x'] == 'y'\n | .............................^\n" },
    ]);
  });
});
