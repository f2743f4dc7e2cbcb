// What upstream checks of a pod template around its pod spec (ValidatePodTemplateSpec, whose ValidatePodSpec part
// lives in pod-spec.ts), and the restart rules of the controllers that run pods forever.
//
//   validatePodTemplateMeta(template, path)      // labels and annotations at `path.labels` / `path.annotations`
//                                                 // (upstream's paths skip "metadata"), no ephemeral containers
//   validateAlwaysRestart(template, path, kind)  // restartPolicy Always, no activeDeadlineSeconds (ReplicaSet, ...)
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, notSupported } from '../../apimachinery/field.js';
import { validateAnnotations, validateLabels } from '../../apimachinery/objectmeta.js';
import { asObj } from './field-checks.js';

type Obj = Record<string, any>;


export const templateOf = (spec: unknown): Obj | undefined => asObj(asObj(spec)?.template);
export const podSpecOf = (template: unknown): Obj => asObj(asObj(template)?.spec) ?? {};
export const labelsOf = (template: unknown): Record<string, string> | undefined => asObj(asObj(asObj(template)?.metadata)?.labels);

export function validatePodTemplateMeta(template: Obj | undefined, path: string): StatusCause[] {
  const meta = asObj(template?.metadata);
  const causes = [...validateLabels(asObj(meta?.labels), `${path}.labels`), ...validateAnnotations(asObj(meta?.annotations), `${path}.annotations`)];
  const ephemeral = podSpecOf(template).ephemeralContainers;
  if (Array.isArray(ephemeral) && ephemeral.length > 0) {
    causes.push(forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return causes;
}

/**
 * The pods of a ReplicaSet, ReplicationController, DaemonSet or StatefulSet run until replaced: restartPolicy must be
 * Always and activeDeadlineSeconds unset (`kind` names the controller in the message, as upstream's do).
 */
export function validateAlwaysRestart(template: Obj | undefined, path: string, kind: string): StatusCause[] {
  const spec = podSpecOf(template);
  const causes: StatusCause[] = [];
  const policy = spec.restartPolicy ?? '';
  if (policy !== 'Always') causes.push(notSupported(`${path}.spec.restartPolicy`, policy, ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    causes.push(forbidden(`${path}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return causes;
}
