// The Python `kubernetes` client (Debian's python3-kubernetes; .ci/run installs it) against a real server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { hasPythonClient, runPython } from '../support/python-client.js';

const SCRIPT = `
import sys, json
from kubernetes import client, config, watch
config.load_kube_config(sys.argv[1])
v1 = client.CoreV1Api()
out = {'namespaces': sorted(n.metadata.name for n in v1.list_namespace().items)}
v1.create_namespaced_config_map('default', client.V1ConfigMap(metadata=client.V1ObjectMeta(name='py', labels={'from': 'python'}), data={'a': 'b'}))
out['created'] = v1.read_namespaced_config_map('py', 'default').data
events = []
for ev in watch.Watch().stream(v1.list_namespaced_config_map, 'default', label_selector='from=python', timeout_seconds=1):
    events.append([ev['type'], ev['object'].metadata.name])
out['events'] = events
try:
    v1.read_namespaced_pod('missing', 'default')
except client.exceptions.ApiException as e:
    out['missing'] = [e.status, json.loads(e.body)['reason']]
apps = client.AppsV1Api()
created = apps.create_namespaced_deployment('default', {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': 'web'},
  'spec': {'replicas': 2, 'selector': {'matchLabels': {'app': 'web'}}, 'template': {'metadata': {'labels': {'app': 'web'}}, 'spec': {'containers': [{'name': 'nginx', 'image': 'nginx'}]}}}})
# as on a cluster, a new Deployment has an empty status (Go writes the struct), not None
out['fresh'] = [type(created.status).__name__, created.status.ready_replicas, created.spec.template.metadata.creation_timestamp]
d = apps.patch_namespaced_deployment_scale('web', 'default', {'spec': {'replicas': 4}})
out['scaled'] = d.spec.replicas
d = apps.patch_namespaced_deployment('web', 'default', {'spec': {'template': {'spec': {'containers': [{'name': 'nginx', 'env': [{'name': 'X', 'value': '1'}]}]}}}})
out['strategic'] = [[c.name, c.image, [e.name for e in c.env]] for c in d.spec.template.spec.containers]
out['version'] = client.VersionApi().get_code().minor
# both discovery paths with the client's trailing slash (the body as sent: the client turns a 'str' response into a repr)
out['issuer'] = json.loads(client.WellKnownApi().get_service_account_issuer_open_id_configuration(_preload_content=False).data)['issuer']
out['jwks'] = [k['kty'] for k in json.loads(client.OpenidApi().get_service_account_issuer_open_id_keyset(_preload_content=False).data)['keys']]
# the client escapes '/' (and ':') in path parameters: the backend gets the decoded path
out['proxied'] = v1.connect_get_namespaced_pod_proxy_with_path(sys.argv[2], 'default', 'stats/summary')
print(json.dumps(out))
`;

let s: TestApiServer;
let backend: Server;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  backend = createServer((req, res) => res.end(`backend ${req.url}`));
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await s?.close();
  backend?.close();
});

describe.skipIf(!hasPythonClient)('the Python kubernetes client', () => {
  it('lists, creates, reads, watches, patches scale and strategically, reads /version/ and the issuer discovery paths, proxies a path, and sees Status errors', async () => {
    await s.api('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await s.api('PATCH', '/api/v1/namespaces/default/pods/web-0/status', { status: { podIP: '127.0.0.1' } }, { 'content-type': 'application/merge-patch+json' });
    const out = JSON.parse(await runPython(SCRIPT, [s.kubeconfig, `web-0:${(backend.address() as AddressInfo).port}`]));
    expect(out.namespaces).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(out.created).toEqual({ a: 'b' });
    expect(out.events).toEqual([['ADDED', 'py']]);
    expect(out.missing).toEqual([404, 'NotFound']);
    expect(out.fresh).toEqual(['V1DeploymentStatus', null, null]);
    expect(out.scaled).toBe(4);
    expect(out.strategic).toEqual([['nginx', 'nginx', ['X']]]);
    expect(out.version).toBe('32');
    expect(out.issuer).toBe('https://kubernetes.default.svc.cluster.local');
    expect(out.jwks).toEqual(['EC']);
    expect(out.proxied).toBe('backend /stats/summary');
  });
});
