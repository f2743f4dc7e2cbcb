// ABAC (--authorization-policy-file, upstream's JSON-lines format) over real HTTPS.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { tokenUser, type TestUser } from './authz-support.js';

let s: TestApiServer;
let alice: TestUser;
let bob: TestUser;

const policy = (spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-abac-'));
  await writeFile(join(dataDir, 'tokens.csv'), 'alice-token,alice,1\nbob-token,bob,2,"ops"\n');
  await writeFile(join(dataDir, 'abac.jsonl'), [
    '# alice reads projectx; bob (group ops) does anything to pods anywhere; every authenticated user reads discovery',
    policy({ user: 'alice', namespace: 'projectx', resource: '*', apiGroup: '*', readonly: true }),
    policy({ group: 'ops', namespace: '*', resource: 'pods', apiGroup: '' }),
    policy({ group: 'system:authenticated', readonly: true, nonResourcePath: '*' }),
    '',
  ].join('\n'));
  s = await startTestApiServer({ dataDir, tokenAuthFile: join(dataDir, 'tokens.csv'), authorizationModes: ['ABAC'], authorizationPolicyFile: join(dataDir, 'abac.jsonl') });
  alice = await tokenUser(s, 'alice-token');
  bob = await tokenUser(s, 'bob-token');
  expect((await s.kubectl('create', 'namespace', 'projectx')).code).toBe(0);
});

afterAll(async () => {
  await Promise.all([alice?.close(), bob?.close()]);
  await s?.close();
});

describe('ABAC', () => {
  it('honours the policy file', async () => {
    expect((await alice.kubectl('get', 'pods', '-n', 'projectx')).code).toBe(0);
    expect((await alice.api('GET', '/apis/apps/v1/namespaces/projectx/deployments')).status).toBe(200);
    const other = await alice.kubectl('get', 'pods', '-n', 'default');
    expect(other.stderr).toContain('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default": No policy matched.');
    const create = await alice.api('POST', '/api/v1/namespaces/projectx/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    expect(create.status).toBe(403);
    expect((await alice.api('GET', '/api')).status).toBe(200);
    expect((await bob.kubectl('run', 'web', '--image=nginx', '-n', 'default')).code).toBe(0);
    expect((await bob.api('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(403);
    // The admin (system:masters) needs no policy line.
    expect((await s.kubectl('get', 'configmaps', '-A')).code).toBe(0);
  });
});
