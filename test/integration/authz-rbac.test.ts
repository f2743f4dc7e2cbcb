// RBAC over real HTTPS with the real kubectl: what `kubectl auth can-i` says matches what requests get,
// for a token user and a certificate user; can-i --list, whoami, impersonation, anonymous access,
// escalation checks and ClusterRole aggregation.
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { anonymousUser, certificateUser, eventually, tokenUser, type TestUser } from './authz-support.js';

let s: TestApiServer;
let jane: TestUser;
let carl: TestUser;
let anon: TestUser;

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-authz-'));
  const tokenAuthFile = join(dataDir, 'tokens.csv');
  await writeFile(tokenAuthFile, 'jane-token,jane,1001,"team-a"\n');
  s = await startTestApiServer({ dataDir, tokenAuthFile });
  jane = await tokenUser(s, 'jane-token');
  carl = await certificateUser(s, 'carl', ['devs']);
  anon = await anonymousUser(s);
  for (const ns of ['team', 'other']) expect((await s.kubectl('create', 'namespace', ns)).code).toBe(0);
});

afterAll(async () => {
  await Promise.all([jane?.close(), carl?.close(), anon?.close()]);
  await s?.close();
});

const canI = async (u: TestUser, ...args: string[]): Promise<string> => (await u.kubectl('auth', 'can-i', ...args)).stdout.trim();

describe('RBAC with a token user', () => {
  it('denies before any binding, with upstream\'s message, and can-i agrees', async () => {
    expect(await canI(jane, 'list', 'pods', '-n', 'team')).toBe('no');
    const r = await jane.kubectl('get', 'pods', '-n', 'team');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "team"');
  });

  it('allows what a RoleBinding grants, only in its namespace', async () => {
    expect((await s.kubectl('create', 'role', 'pod-reader', '-n', 'team', '--verb=get,list,watch', '--resource=pods')).code).toBe(0);
    expect((await s.kubectl('create', 'rolebinding', 'jane-reads', '-n', 'team', '--role=pod-reader', '--user=jane')).code).toBe(0);
    expect(await canI(jane, 'list', 'pods', '-n', 'team')).toBe('yes');
    expect((await jane.kubectl('get', 'pods', '-n', 'team')).code).toBe(0);
    expect(await canI(jane, 'create', 'pods', '-n', 'team')).toBe('no');
    expect(await canI(jane, 'list', 'pods', '-n', 'other')).toBe('no');
    const other = await jane.kubectl('get', 'pods', '-n', 'other');
    expect(other.stderr).toContain('cannot list resource "pods" in API group "" in the namespace "other"');
    const created = await jane.api('POST', '/api/v1/namespaces/team/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(created.status).toBe(403);
    expect(created.body.reason).toBe('Forbidden');
  });

  it('explains an allowed SubjectAccessReview with the binding, as upstream words it', async () => {
    const r = await s.api('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: 'jane', groups: ['system:authenticated'], resourceAttributes: { namespace: 'team', verb: 'get', resource: 'pods' } },
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "jane-reads/team" of Role "pod-reader" to User "jane"' });
    const local = await s.api('POST', '/apis/authorization.k8s.io/v1/namespaces/other/localsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview',
      spec: { user: 'jane', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } },
    });
    expect(local.status).toBe(201);
    expect(local.body.status.allowed).toBe(false);
    const bad = await s.api('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'jane' } });
    expect(bad.status).toBe(422);
  });

  it('lists its rules (can-i --list) and says who it is (whoami)', async () => {
    const list = await jane.kubectl('auth', 'can-i', '--list', '-n', 'team');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(list.stdout).toMatch(/selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
    const who = await jane.kubectl('auth', 'whoami', '-o', 'json');
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout).status.userInfo).toEqual({ username: 'jane', uid: '1001', groups: ['team-a', 'system:authenticated'] });
  });
});

describe('RBAC with a certificate user', () => {
  it('follows a ClusterRoleBinding of the view role to its group', async () => {
    expect(await canI(carl, 'get', 'deployments.apps', '-n', 'other')).toBe('no');
    expect((await s.kubectl('create', 'clusterrolebinding', 'devs-view', '--clusterrole=view', '--group=devs')).code).toBe(0);
    expect(await canI(carl, 'get', 'deployments.apps', '-n', 'other')).toBe('yes');
    expect((await carl.kubectl('get', 'deployments', '-n', 'other')).code).toBe(0);
    expect(await canI(carl, 'create', 'deployments.apps', '-n', 'other')).toBe('no');
    expect((await carl.kubectl('create', 'deployment', 'web', '--image=nginx', '-n', 'other')).stderr).toContain('User "carl" cannot create resource "deployments" in API group "apps"');
    // view does not read secrets.
    expect(await canI(carl, 'get', 'secrets', '-n', 'other')).toBe('no');
    expect((await carl.api('GET', '/api/v1/namespaces/other/secrets')).status).toBe(403);
    // Subresources: view reads pods/log but not pods/exec.
    expect(await canI(carl, 'get', 'pods', '--subresource=log', '-n', 'other')).toBe('yes');
    expect(await canI(carl, 'create', 'pods', '--subresource=exec', '-n', 'other')).toBe('no');
  });
});

describe('impersonation', () => {
  it('lets the admin act as jane, and refuses a plain user with upstream\'s message', async () => {
    const asJane = await s.kubectl('--as=jane', 'get', 'pods', '-n', 'team');
    expect(asJane.code).toBe(0);
    const asJaneOther = await s.kubectl('--as=jane', 'get', 'pods', '-n', 'other');
    expect(asJaneOther.stderr).toContain('User "jane" cannot list resource "pods"');
    expect((await s.kubectl('auth', 'whoami', '--as=jane', '--as-group=g1', '-o', 'json')).stdout).toContain('"g1"');
    const refused = await jane.kubectl('--as=admin', 'get', 'pods', '-n', 'team');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('users "admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    // Each header is checked: with `impersonate` on users only, groups stay out of reach.
    expect((await s.kubectl('create', 'clusterrole', 'user-impersonator', '--verb=impersonate', '--resource=users')).code).toBe(0);
    expect((await s.kubectl('create', 'clusterrolebinding', 'jane-impersonates', '--clusterrole=user-impersonator', '--user=jane')).code).toBe(0);
    expect((await jane.kubectl('--as=someone', 'auth', 'whoami')).stdout).toContain('someone');
    const group = await jane.api('GET', '/api/v1/namespaces/team/pods', undefined, { 'impersonate-user': 'jane', 'impersonate-group': 'system:masters' });
    expect(group.status).toBe(403);
    expect(group.body.message).toBe('groups "system:masters" is forbidden: User "jane" cannot impersonate resource "groups" in API group "" at the cluster scope');
  });
});

describe('anonymous requests', () => {
  it('reach health and version, and nothing else', async () => {
    for (const p of ['/healthz', '/livez', '/readyz', '/version']) expect((await anon.api('GET', p)).status).toBe(200);
    const api = await anon.api('GET', '/api');
    expect(api.status).toBe(403);
    expect(api.body.message).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
    expect((await anon.api('GET', '/api/v1/namespaces/team/pods')).status).toBe(403);
    // An authenticated user reaches discovery (system:discovery is bound to system:authenticated).
    expect((await jane.api('GET', '/apis')).status).toBe(200);
  });
});

describe('escalation checks', () => {
  it('lets a namespace admin grant what it holds and nothing more', async () => {
    expect((await s.kubectl('create', 'rolebinding', 'jane-admin', '-n', 'team', '--clusterrole=admin', '--user=jane')).code).toBe(0);
    expect((await jane.kubectl('create', 'role', 'cm-reader', '-n', 'team', '--verb=get', '--resource=configmaps')).code).toBe(0);
    const nodes = await jane.kubectl('create', 'role', 'node-reader', '-n', 'team', '--verb=get', '--resource=nodes');
    expect(nodes.code).not.toBe(0);
    expect(nodes.stderr).toContain('roles.rbac.authorization.k8s.io "node-reader" is forbidden: user "jane" (groups=["team-a" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}');
    const bind = await jane.kubectl('create', 'rolebinding', 'jane-root', '-n', 'team', '--clusterrole=cluster-admin', '--user=jane');
    expect(bind.code).not.toBe(0);
    expect(bind.stderr).toContain('rolebindings.rbac.authorization.k8s.io "jane-root" is forbidden: user "jane"');
    // Binding a role whose rules it holds is fine.
    expect((await jane.kubectl('create', 'rolebinding', 'carl-cm', '-n', 'team', '--role=cm-reader', '--user=carl')).code).toBe(0);
    // With `escalate` on roles, the check is skipped.
    expect((await s.kubectl('create', 'clusterrole', 'role-escalator', '--verb=escalate', '--resource=roles.rbac.authorization.k8s.io')).code).toBe(0);
    expect((await s.kubectl('create', 'rolebinding', 'jane-escalate', '-n', 'team', '--clusterrole=role-escalator', '--user=jane')).code).toBe(0);
    expect((await jane.kubectl('create', 'role', 'node-reader', '-n', 'team', '--verb=get', '--resource=nodes')).code).toBe(0);
  });
});

describe('bootstrap policy and aggregation', () => {
  it('has upstream\'s roles, annotated for auto-update, and aggregates admin, edit and view', async () => {
    const get = async (name: string): Promise<any> => JSON.parse((await s.kubectl('get', 'clusterrole', name, '-o', 'json')).stdout);
    const view = await get('view');
    expect(view.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    expect(view.rules.some((r: any) => r.resources?.includes('pods') && r.verbs.includes('list'))).toBe(true);
    const edit = await get('edit');
    expect(edit.rules.length).toBeGreaterThan(view.rules.length);
    expect((await get('admin')).rules.some((r: any) => r.resources?.includes('rolebindings'))).toBe(true);
    for (const name of ['cluster-admin', 'system:node', 'system:kube-scheduler', 'system:controller:deployment-controller', 'system:public-info-viewer']) {
      expect((await s.kubectl('get', 'clusterrole', name)).code).toBe(0);
    }
    expect((await s.kubectl('get', 'role', '-n', 'kube-system', 'system::leader-locking-kube-scheduler')).code).toBe(0);

    const widget = {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list'] }],
    };
    expect((await s.api('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', widget)).status).toBe(201);
    const hasWidgets = async (name: string): Promise<boolean> => ((await get(name)).rules ?? []).some((r: any) => r.resources?.includes('widgets'));
    await eventually(async () => (await hasWidgets('view')) && (await hasWidgets('edit')) && (await hasWidgets('admin')));
    const sar = await carl.api('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'other', verb: 'list', group: 'example.com', resource: 'widgets' } },
    });
    expect(sar.body.status.allowed).toBe(true);
    expect((await s.kubectl('delete', 'clusterrole', 'widgets-view')).code).toBe(0);
    await eventually(async () => !(await hasWidgets('admin')));
  });

  it('keeps what users changed across a restart, and restores what they removed unless autoupdate is false', async () => {
    const path = '/apis/rbac.authorization.k8s.io/v1/clusterroles/';
    const basic = (await s.api('GET', `${path}system:basic-user`)).body;
    basic.rules = [{ apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['get'] }];
    expect((await s.api('PUT', `${path}system:basic-user`, basic)).status).toBe(200);
    const heap = (await s.api('GET', `${path}system:heapster`)).body;
    heap.rules = [];
    heap.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
    expect((await s.api('PUT', `${path}system:heapster`, heap)).status).toBe(200);

    await s.stop();
    const again = await startTestApiServer({ dataDir: s.dataDir, tokenAuthFile: join(s.dataDir, 'tokens.csv') });
    s = Object.assign(again, { close: again.close });
    const after = (await s.api('GET', `${path}system:basic-user`)).body;
    expect(after.rules.some((r: any) => r.resources?.includes('gadgets'))).toBe(true);
    expect(after.rules.some((r: any) => r.resources?.includes('selfsubjectaccessreviews'))).toBe(true);
    expect((await s.api('GET', `${path}system:heapster`)).body.rules ?? []).toEqual([]);
  });
});
