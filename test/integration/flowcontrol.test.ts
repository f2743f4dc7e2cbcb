// flowcontrol.apiserver.k8s.io/v1 with the real kubectl: upstream's bootstrap FlowSchemas and priority levels from the
// first start (and back after a restart when deleted), their table columns, defaults, validation, and the Dangling
// condition that MISSINGPL shows.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ controllers: [] });
});
afterAll(() => s.close());

const until = async (what: string, ok: () => Promise<boolean>): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const rows = async (...args: string[]): Promise<string[][]> =>
  (await cleanStdout(s.kubectl('get', ...args))).trim().split('\n').map((l) => l.trim().split(/\s+/));

it('serves upstream\'s bootstrap configuration with its columns', async () => {
  await until('the Dangling conditions', async () => (await rows('flowschemas')).slice(1).every((r) => r[5] === 'False'));
  const fs = await rows('flowschemas');
  expect(fs[0]).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
  // in the order requests are matched: by precedence, then name (upstream's printFlowSchemaList)
  expect(fs.slice(1).map((r) => [r[0], r[1], r[2], r[3]])).toEqual([
    ['exempt', 'exempt', '1', '<none>'], ['probes', 'exempt', '2', '<none>'],
    ['system-leader-election', 'leader-election', '100', 'ByUser'], ['endpoint-controller', 'workload-high', '150', 'ByUser'],
    ['workload-leader-election', 'leader-election', '200', 'ByUser'], ['system-node-high', 'node-high', '400', 'ByUser'],
    ['system-nodes', 'system', '500', 'ByUser'], ['kube-controller-manager', 'workload-high', '800', 'ByNamespace'],
    ['kube-scheduler', 'workload-high', '800', 'ByNamespace'], ['kube-system-service-accounts', 'workload-high', '900', 'ByNamespace'],
    ['service-accounts', 'workload-low', '9000', 'ByUser'], ['global-default', 'global-default', '9900', 'ByUser'],
    ['catch-all', 'catch-all', '10000', 'ByUser'],
  ]);
  const pl = await rows('prioritylevelconfigurations');
  expect(pl[0]).toEqual(['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
  expect(pl.slice(1).map((r) => r.slice(0, 6))).toEqual([
    ['catch-all', 'Limited', '5', '<none>', '<none>', '<none>'], ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'],
    ['global-default', 'Limited', '20', '128', '6', '50'], ['leader-election', 'Limited', '10', '16', '4', '50'],
    ['node-high', 'Limited', '40', '64', '6', '50'], ['system', 'Limited', '30', '64', '6', '50'],
    ['workload-high', 'Limited', '40', '128', '6', '50'], ['workload-low', 'Limited', '100', '128', '6', '50'],
  ]);
  const exempt = JSON.parse(await cleanStdout(s.kubectl('get', 'flowschema', 'exempt', '-o', 'json')));
  expect(exempt.metadata.annotations).toEqual({ 'apf.kubernetes.io/autoupdate-spec': 'true' });
  expect(exempt.status.conditions[0]).toMatchObject({ type: 'Dangling', status: 'False', reason: 'Found' });
  expect(await cleanStdout(s.kubectl('api-resources', '--api-group=flowcontrol.apiserver.k8s.io', '-o', 'name'))).toBe(
    'flowschemas.flowcontrol.apiserver.k8s.io\nprioritylevelconfigurations.flowcontrol.apiserver.k8s.io\n');
});

it('defaults, validates, and marks a FlowSchema whose priority level is missing', async () => {
  const mine = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'mine' },
    spec: { priorityLevelConfiguration: { name: 'mine' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'me' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] }] } };
  expect((await s.kubectlWithInput(JSON.stringify(mine), 'create', '-f', '-')).code).toBe(0);
  await until('MISSINGPL True', async () => (await rows('flowschema', 'mine'))[1]?.[5] === 'True');
  expect((await rows('flowschema', 'mine'))[1].slice(0, 4)).toEqual(['mine', 'mine', '1000', '<none>']);

  const level = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'mine' },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 0 } } } } };
  const created = await s.kubectlWithInput(JSON.stringify(level), 'create', '-f', '-');
  expect(created.stderr).toBe('');
  expect(JSON.parse(await cleanStdout(s.kubectl('get', 'prioritylevelconfiguration', 'mine', '-o', 'json'))).spec.limited).toEqual({
    nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
  });
  await until('MISSINGPL False', async () => (await rows('flowschema', 'mine'))[1]?.[5] === 'False');

  const bad = await s.kubectlWithInput(JSON.stringify({ ...mine, metadata: { name: 'bad' }, spec: { ...mine.spec, matchingPrecedence: 10001, distinguisherMethod: { type: 'ByColor' } } }), 'create', '-f', '-');
  expect(bad.stderr).toContain('spec.matchingPrecedence: Invalid value: 10001: must be between 1 and 10000, inclusive');
  expect(bad.stderr).toContain('spec.distinguisherMethod.type: Unsupported value: "ByColor": supported values: "ByNamespace", "ByUser"');
  const wide = await s.kubectlWithInput(JSON.stringify({ ...level, metadata: { name: 'wide' },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 8 } } } } }), 'create', '-f', '-');
  const unqueued = await s.kubectlWithInput(JSON.stringify({ ...level, metadata: { name: 'unqueued' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue' } } } }), 'create', '-f', '-');
  expect(unqueued.stderr).toContain('spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Queue');
  expect(wide.stderr).toContain('spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (4)');
});

it('puts back a deleted bootstrap object and an auto-updated spec at the next start', async () => {
  await cleanStdout(s.kubectl('delete', 'flowschema', 'service-accounts'));
  await cleanStdout(s.kubectl('patch', 'prioritylevelconfiguration', 'workload-low', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":7}}}'));
  await cleanStdout(s.kubectl('annotate', 'prioritylevelconfiguration', 'global-default', '--overwrite', 'apf.kubernetes.io/autoupdate-spec=false'));
  await cleanStdout(s.kubectl('patch', 'prioritylevelconfiguration', 'global-default', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":9}}}'));
  await s.stop();
  s = await startTestApiServer({ controllers: [], dataDir: s.dataDir });
  expect((await rows('flowschema', 'service-accounts'))[1].slice(0, 3)).toEqual(['service-accounts', 'workload-low', '9000']);
  expect((await rows('prioritylevelconfiguration', 'workload-low'))[1][2]).toBe('100');
  expect((await rows('prioritylevelconfiguration', 'global-default'))[1][2]).toBe('9');
});
