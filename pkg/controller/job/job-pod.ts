// The pod a Job creates (upstream manageJob's template handling): its labels, the tracking finalizer and, for an
// Indexed Job, the completion index, the hostname and JOB_COMPLETION_INDEX.
import type { KubeObject } from '../../../api/types.js';
import { MAX_GENERATED_NAME_LENGTH } from '../../apimachinery/names.js';
import { controllerRef } from '../shared/controller-utils.js';
import { podFromTemplate, type Pod } from '../shared/controller-utils-pods.js';
import { COMPLETION_INDEX, CONTROLLER_UID, JOB_NAME, JOB_TRACKING_FINALIZER, LEGACY_CONTROLLER_UID, LEGACY_JOB_NAME } from './job-util.js';

/**
 * `<job>-<index>-`, the job name cut short when that is longer than a generated name's prefix may be (upstream
 * podGenerateNameWithIndex), so the apiserver's own cut does not take the index away.
 */
export const podGenerateNameWithIndex = (jobName: string, idx: number): string => {
  const suffix = `-${idx}-`;
  const prefix = `${jobName}${suffix}`;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? prefix.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix : prefix;
};

export function jobPod(job: KubeObject, idx: number | undefined): Pod {
  const name = job.metadata!.name!;
  const uid = job.metadata!.uid!;
  const labels: Record<string, string> = { [CONTROLLER_UID]: uid, [JOB_NAME]: name, [LEGACY_CONTROLLER_UID]: uid, [LEGACY_JOB_NAME]: name };
  const annotations: Record<string, string> = {};
  if (idx !== undefined) { labels[COMPLETION_INDEX] = String(idx); annotations[COMPLETION_INDEX] = String(idx); }
  const pod = podFromTemplate(job.spec?.template, controllerRef(job, 'batch/v1', 'Job'), {
    generateName: idx === undefined ? `${name}-` : podGenerateNameWithIndex(name, idx), labels, annotations,
  });
  if (!pod.metadata!.finalizers?.includes(JOB_TRACKING_FINALIZER)) pod.metadata!.finalizers = [...(pod.metadata!.finalizers ?? []), JOB_TRACKING_FINALIZER];
  if (idx !== undefined) {
    // the template's own hostname gives way, as upstream sets it unconditionally
    pod.spec.hostname = `${name}-${idx}`;
    // from the label since PodIndexLabel (GA in 1.32)
    const env = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.labels['${COMPLETION_INDEX}']` } } };
    for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
      if (!(c.env ?? []).some((e: { name: string }) => e.name === env.name)) c.env = [...(c.env ?? []), env];
    }
  }
  return pod;
}
