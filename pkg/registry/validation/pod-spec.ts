// A pod spec, wherever it appears (a pod, a pod template of a workload), as upstream's ValidatePodSpec checks it
// (pkg/apis/core/validation/validation.go).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { validateContainers } from './container.js';

/** Causes for the pod spec at `path` ("spec", "spec.template.spec"), its containers included. */
export function validatePodSpec(spec: KubeObject, path: string): StatusCause[] {
  return validateContainers(spec, path, new Map());
}
