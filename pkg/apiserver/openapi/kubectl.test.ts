// The real kubectl against discovery and OpenAPI alone (plus a stub create), where its binaries are installed.
import Fastify, { type FastifyInstance } from 'fastify';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../discovery/fixture.js';
import { registerDiscovery } from '../discovery/routes.js';
import { registerOpenApi } from './index.js';

const BIN_DIR = '/usr/lib/google-cloud-sdk/bin';
const versions = ['1.27', '1.28', '1.33'].filter((v) => existsSync(join(BIN_DIR, `kubectl.${v}`)));

describe.runIf(versions.length > 0)('real kubectl', () => {
  let app: FastifyInstance;
  let server: string;
  const dir = mkdtempSync(join(tmpdir(), 'mini-kube-openapi-'));
  const pod = join(dir, 'pod.yaml');
  const requests: string[] = [];
  const patches: string[] = [];

  beforeAll(async () => {
    app = Fastify();
    registerDiscovery(app, fixture);
    registerOpenApi(app, fixture);
    app.addHook('onRequest', async (req) => { requests.push(`${req.method} ${req.url}`); });
    // A stub store, enough for create and for apply's get-then-patch.
    const objects = new Map<string, Record<string, unknown>>();
    app.addContentTypeParser(['application/strategic-merge-patch+json', 'application/merge-patch+json'],
      { parseAs: 'string' }, (_req, body, done) => done(null, body));
    app.get('/*', async (req, reply) => objects.get(req.url.split('?')[0]!) ?? reply.code(404).send({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
    app.post('/*', async (req, reply) => {
      const obj = req.body as { metadata: Record<string, unknown> };
      obj.metadata = { ...obj.metadata, namespace: 'default', uid: 'u', resourceVersion: '1' };
      objects.set(`${req.url.split('?')[0]}/${String(obj.metadata.name)}`, obj);
      return reply.code(201).send(obj);
    });
    app.patch('/*', async (req) => {
      patches.push(`${req.url.split('?')[0]} ${req.headers['content-type']}`);
      return objects.get(req.url.split('?')[0]!);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    writeFileSync(pod, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeName: n\n');
  });
  afterAll(async () => app.close());

  const kubectl = async (v: string, ...args: string[]) => {
    const { stdout } = await promisify(execFile)(join(BIN_DIR, `kubectl.${v}`),
      ['--server', server, '--cache-dir', mkdtempSync(join(dir, 'cache-')), ...args],
      { encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/dev/null' } });
    return stdout;
  };

  for (const v of versions) {
    it(`kubectl ${v}: create, apply, explain (v3 and v2), api-resources`, async () => {
      requests.length = 0;
      expect(await kubectl(v, 'create', '-f', pod, '-n', 'default')).toContain('pod/p created');
      // 1.27 and 1.28 fetch the protobuf v2 document before creating; every version finds fieldValidation in v3.
      expect(requests).toContainEqual(expect.stringMatching(/^POST \/api\/v1\/namespaces\/default\/pods\?.*fieldValidation=Strict/));
      if (v === '1.27' || v === '1.28') expect(requests).toContainEqual(expect.stringMatching(/^GET \/openapi\/v2/));
      expect(await kubectl(v, 'explain', 'deployments.spec')).toMatch(/FIELD: spec <DeploymentSpec>[\s\S]*replicas\s+<integer>/);
      expect(await kubectl(v, 'explain', 'pods.spec', '--output', 'plaintext-openapiv2'))
        .toMatch(/RESOURCE: spec <Object>[\s\S]*nodeName\s+<string>/);
      // apply twice: kubectl picks strategic merge for built-in kinds and JSON merge for custom resources,
      // from the patch content types the specs list (v2 paths in 1.27/1.28, v3 after).
      patches.length = 0;
      for (const [kind, apiVersion, size] of [['Deployment', 'apps/v1', 1], ['Widget', 'stable.example.com/v1', 2]]) {
        for (const n of [1, 2]) {
          const file = join(dir, `${String(kind)}-${n}.yaml`);
          writeFileSync(file, `apiVersion: ${String(apiVersion)}\nkind: ${String(kind)}\nmetadata:\n  name: x\n`
            + (kind === 'Widget' ? `spec:\n  size: "${Number(size) * n}"\n` : `spec:\n  replicas: ${n}\n`));
          await kubectl(v, 'apply', '-f', file, '-n', 'default');
        }
      }
      expect(patches).toEqual([
        '/apis/apps/v1/namespaces/default/deployments/x application/strategic-merge-patch+json',
        '/apis/stable.example.com/v1/namespaces/default/widgets/x application/merge-patch+json',
      ]);
      const resources = await kubectl(v, 'api-resources');
      expect(resources).toMatch(/deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
      expect(resources).toMatch(/widgets\s+stable\.example\.com\/v1\s+true\s+Widget/);
    });
  }
});
