// The warnings each pod-making kind's strategy gives, through the generic create and update (upstream 1.32's
// WarningsOnCreate and WarningsOnUpdate of the pod, podtemplate and workload strategies).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { RequestContext } from '../context.js';
import { create } from '../generic/create.js';
import { patchBuilder } from '../generic/patch.js';
import type { Registry } from '../generic/registry.js';
import { testContext, withRegistries } from '../generic/testing.js';
import { update } from '../generic/update.js';

const OS = 'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead';
const DOTS = 'a DNS label is recommended: [must not contain dots]';
const WORKLOAD_NAME = `metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; ${DOTS}`;

const podSpec = (nodeSelector: Record<string, string> = { 'beta.kubernetes.io/os': 'linux' }): KubeObject =>
  ({ nodeSelector, containers: [{ name: 'c', image: 'nginx' }] });
const template = (spec: KubeObject = podSpec()): KubeObject => ({ metadata: { labels: { app: 'w' } }, spec });
const selector = { matchLabels: { app: 'w' } };

/** Creates `body` with `reg` and gives the warnings; then `patch` (a merge patch) and gives the update's. */
async function warningsOf(reg: Registry, body: KubeObject, ...patches: KubeObject[]): Promise<string[][]> {
  const ctx = (): RequestContext => testContext({ fieldValidation: 'Ignore' });
  const created = ctx();
  await create(reg, created, body);
  const out = [created.warnings];
  for (const patch of patches) {
    const c = ctx();
    await update(reg, c, patchBuilder(reg, c, body.metadata!.name!, 'merge', patch, false));
    out.push(c.warnings);
  }
  return out;
}

describe('workload warnings', () => {
  it('a pod: its name as its hostname and its spec, on create only', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web.1' }, spec: podSpec() };
      expect(await warningsOf(pods, pod, { metadata: { labels: { a: 'b' } } })).toEqual([
        [`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; ${DOTS}`, OS],
        [],
      ]);
    });
  });

  it('a Deployment and a ReplicaSet: the name, the template under spec.template, again when the generation moves', async () => {
    await withRegistries(async (regs) => {
      for (const [plural, kind] of [['deployments', 'Deployment'], ['replicasets', 'ReplicaSet']]) {
        const reg = regs.get('apps', 'v1', plural!)!;
        const body = { apiVersion: 'apps/v1', kind, metadata: { name: 'w.1' }, spec: { selector, template: template() } };
        expect(await warningsOf(reg, body, { metadata: { labels: { a: 'b' } } }, { spec: { replicas: 3 } })).toEqual([
          [WORKLOAD_NAME, `spec.template.${OS}`],
          [], // labels move no generation
          [`spec.template.${OS}`],
        ]);
      }
    });
  });

  it('a ReplicationController: an update is warned of the stored template, as upstream swaps them', async () => {
    await withRegistries(async (regs) => {
      const rcs = regs.get('', 'v1', 'replicationcontrollers')!;
      const body = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { selector: { app: 'w' }, template: template(podSpec({})) } };
      const arch = { template: { spec: { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } } } };
      const archWarning = 'spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead';
      expect(await warningsOf(rcs, body, { spec: arch }, { spec: { replicas: 2 } })).toEqual([[], [], [archWarning]]);
    });
  });

  it('a DaemonSet: no name warning, the template again when it changed', async () => {
    await withRegistries(async (regs) => {
      const sets = regs.get('apps', 'v1', 'daemonsets')!;
      const body = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd.1' }, spec: { selector, template: template() } };
      expect(await warningsOf(sets, body, { spec: { minReadySeconds: 5 } }, { spec: { template: { metadata: { labels: { x: 'y' } } } } }))
        .toEqual([[`spec.template.${OS}`], [], [`spec.template.${OS}`]]);
    });
  });

  it('a StatefulSet: the template and its claim templates, named two ways as upstream names them', async () => {
    await withRegistries(async (regs) => {
      const sets = regs.get('apps', 'v1', 'statefulsets')!;
      const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1500m' } } } };
      const body = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's.1' }, spec: { selector, serviceName: 's', template: template(), volumeClaimTemplates: [claim] } };
      const fractional = (path: string): string => `${path}.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer`;
      expect(await warningsOf(sets, body, { metadata: { labels: { a: 'b' } } }, { spec: { replicas: 2 } })).toEqual([
        [`spec.template.${OS}`, fractional('spec.volumeClaimTemplates[0]')],
        [fractional('spec.volumeClaimTemplates[0].Spec')],
        [`spec.template.${OS}`, fractional('spec.volumeClaimTemplates[0].Spec')],
      ]);
    });
  });

  it('a Job and a CronJob: the name, the job spec and its template', async () => {
    await withRegistries(async (regs) => {
      const jobs = regs.get('batch', 'v1', 'jobs')!;
      const jobTemplate = (): KubeObject => template({ ...podSpec(), restartPolicy: 'Never' });
      const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j.1' }, spec: { template: jobTemplate(), suspend: true } };
      expect(await warningsOf(jobs, job, { metadata: { labels: { a: 'b' } } }, { spec: { suspend: false } }))
        .toEqual([[WORKLOAD_NAME, `spec.template.${OS}`], [], [`spec.template.${OS}`]]);
      const cronJobs = regs.get('batch', 'v1', 'cronjobs')!;
      const cronJob = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c.1' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: jobTemplate() } } } };
      expect(await warningsOf(cronJobs, cronJob, { spec: { suspend: true } })).toEqual([
        [WORKLOAD_NAME, `spec.jobTemplate.spec.template.${OS}`],
        [`spec.jobTemplate.spec.template.${OS}`],
      ]);
    });
  });

  it('an Indexed Job past the completions and parallelism it can track', async () => {
    await withRegistries(async (regs) => {
      const jobs = regs.get('batch', 'v1', 'jobs')!;
      const job = {
        apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'big' },
        spec: { completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, template: template({ ...podSpec({}), restartPolicy: 'Never' }) },
      };
      expect(await warningsOf(jobs, job)).toEqual([[
        'spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail',
      ]]);
    });
  });

  it('a PodTemplate: its template under template, again when it changed', async () => {
    await withRegistries(async (regs) => {
      const templates = regs.get('', 'v1', 'podtemplates')!;
      const body = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't.1' }, template: template() };
      expect(await warningsOf(templates, body, { metadata: { labels: { a: 'b' } } }, { template: { metadata: { labels: { x: 'y' } } } }))
        .toEqual([[`template.${OS}`], [], [`template.${OS}`]]);
    });
  });

  it('nothing for a write that fails validation, nor for a status update', async () => {
    await withRegistries(async (regs) => {
      const deployments = regs.get('apps', 'v1', 'deployments')!;
      const ctx = testContext();
      await expect(create(deployments, ctx, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bad' }, spec: { selector, template: template({ nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, containers: [] }) } }))
        .rejects.toMatchObject({ code: 422 });
      expect(ctx.warnings).toEqual([]);
      // a StatefulSet's update warns of its claim templates whatever changed, but a status update is no update of it
      const sets = regs.get('apps', 'v1', 'statefulsets')!;
      const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1500m' } } } };
      await create(sets, testContext(), { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { selector, serviceName: 's', template: template(), volumeClaimTemplates: [claim] } });
      const status = testContext();
      await update(sets, status, patchBuilder(sets, status, 's', 'merge', { status: { replicas: 1 } }, false, 'status'));
      expect(status.warnings).toEqual([]);
    });
  });
});
