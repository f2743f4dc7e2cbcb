// A null the client sends is what Go's decoder makes of it: a field's is the field left out, a map value's or a list
// item's its type's zero (YAML's `app:` with nothing after it is the label app=""), a struct item an empty struct
// that validation then looks inside.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
});
afterAll(async () => {
  await s?.close();
});

describe('nulls in a body', () => {
  it('are the zero value of a map\'s values and a list\'s items', async () => {
    const cm = await s.kubectlWithInput('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nl\n  labels:\n    app:\ndata:\n  k:\nbinaryData:\n  b:\nimmutable: null\n',
      'create', '-f', '-', '-o', 'json');
    expect(cm.code).toBe(0);
    const created = JSON.parse(cm.stdout);
    expect([created.metadata.labels, created.data, created.binaryData, 'immutable' in created]).toEqual([{ app: '' }, { k: '' }, { b: '' }, false]);
    expect((await s.kubectl('get', 'configmaps', '-l', 'app=', '-o', 'name')).stdout).toBe('configmap/nl\n');
    const pod = await s.kubectlWithInput('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args: [null, a]\n    resources: {limits: {cpu: null}}\n',
      'create', '-f', '-', '-o', 'jsonpath={.spec.containers[0].args} {.spec.containers[0].resources}');
    expect(pod.stdout).toBe('["","a"] {"limits":{"cpu":"0"},"requests":{"cpu":"0"}}');
  });

  it('make an empty struct of a list\'s item, refused for what it lacks', async () => {
    const pod = await s.kubectlWithInput('apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers: [null]\n', 'create', '-f', '-');
    expect(pod.stderr).toBe('The Pod "q" is invalid: \n* spec.containers[0].name: Required value\n* spec.containers[0].image: Required value\n');
  });
});
