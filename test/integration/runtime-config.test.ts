// --runtime-config as kubectl sees it: discovery, OpenAPI and the routes follow the group versions and resources
// turned on or off; policy/v1beta1 (gone upstream since 1.25) is not served unless asked for.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

const running: TestApiServer[] = [];
afterAll(async () => { for (const s of running) await s.close(); });
const start = async (runtimeConfig?: Map<string, string>): Promise<TestApiServer> => {
  const s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [], runtimeConfig });
  running.push(s);
  return s;
};

describe('--runtime-config', () => {
  it('serves what upstream 1.32 serves by default: no policy/v1beta1', async () => {
    const s = await start();
    const versions = (await cleanStdout(s.kubectl('api-versions'))).split('\n');
    expect(versions).toContain('policy/v1');
    expect(versions).not.toContain('policy/v1beta1');
    expect((await s.kubectl('get', 'podsecuritypolicies')).stderr).toContain('the server doesn\'t have a resource type "podsecuritypolicies"');
  });

  it('turns group versions and resources on and off for discovery, OpenAPI and requests', async () => {
    const s = await start(new Map([['policy/v1beta1', ''], ['apps/v1/daemonsets', 'false'], ['batch/v1', 'false']]));
    const versions = (await cleanStdout(s.kubectl('api-versions'))).split('\n');
    expect(versions).toContain('policy/v1beta1');
    expect(versions).not.toContain('batch/v1');
    const apps = await cleanStdout(s.kubectl('api-resources', '--api-group=apps', '-o', 'name'));
    expect(apps.split('\n')).toEqual(expect.arrayContaining(['deployments.apps', 'statefulsets.apps']));
    expect(apps).not.toContain('daemonsets');
    expect((await s.api('GET', '/apis/apps/v1/namespaces/default/daemonsets')).status).toBe(404);
    expect((await s.api('GET', '/apis/batch/v1/jobs')).status).toBe(404);
    const openapi = await s.api('GET', '/openapi/v3');
    expect(Object.keys(openapi.body.paths)).toContain('apis/policy/v1beta1');
    expect(Object.keys(openapi.body.paths)).not.toContain('apis/batch/v1');
    const psp = await s.kubectl('get', 'psp');
    expect([psp.code, psp.stderr]).toEqual([0, 'No resources found\n']);
  });
});
