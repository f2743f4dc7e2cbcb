// The warnings the pod-making kinds' strategies share (upstream 1.32: WarningsOnCreate and WarningsOnUpdate of the
// pod, replicationcontroller, replicaset, deployment, job and cronjob strategies; pkg/registry/batch/job's
// WarningsForJobSpec).
import type { KubeObject } from '../../../api/types.js';
import { isDNS1123Label } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { asObj, num } from '../validation/field-checks.js';
import { podTemplateWarnings } from './pod-warnings.js';

/** A Pod's name is its hostname; a workload's is the start of its Pods' names (and so of their hostnames). */
export function nameWarnings(obj: KubeObject, use: 'pod' | 'workload'): string[] {
  const msgs = isDNS1123Label(obj.metadata?.name ?? '');
  if (!msgs.length) return [];
  const what = use === 'pod' ? "the Pod's hostname" : 'Pod names and hostnames';
  return [`metadata.name: this is used in ${what}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/** Upstream's update warnings look at the pod template again only when the write changed the generation. */
export const generationChanged = (obj: KubeObject, old: KubeObject): boolean => obj.metadata?.generation !== old.metadata?.generation;

/** A ReplicaSet's or a Deployment's: its name, and its pod template, again on an update that changed the generation. */
export const replicatedWarnings: Pick<Strategy, 'warningsOnCreate' | 'warningsOnUpdate'> = {
  warningsOnCreate: (obj) => [...nameWarnings(obj, 'workload'), ...podTemplateWarnings(obj.spec?.template, 'spec.template')],
  warningsOnUpdate: (obj, old) => (generationChanged(obj, old) ? podTemplateWarnings(obj.spec?.template, 'spec.template') : []),
};

/** An Indexed Job past these has failed indexes it may not track. */
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_SOFT_LIMIT = 10_000;

/** WarningsForJobSpec of the job spec at `path` (`spec`, a CronJob's `spec.jobTemplate.spec`). */
export function jobSpecWarnings(specRaw: unknown, path: string): string[] {
  const spec = asObj(specRaw) ?? {};
  const out: string[] = [];
  if (spec.completionMode === 'Indexed' && (num(spec.completions) ?? 0) > COMPLETIONS_SOFT_LIMIT && (num(spec.parallelism) ?? 0) > PARALLELISM_SOFT_LIMIT) {
    out.push(`${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`);
  }
  return [...out, ...podTemplateWarnings(spec.template, `${path}.template`)];
}
