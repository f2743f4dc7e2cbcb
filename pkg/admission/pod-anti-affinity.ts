// LimitPodHardAntiAffinityTopology: a pod's required anti-affinity terms may only keep pods apart per node, so one
// pod cannot block a whole zone (upstream: plugin/pkg/admission/antiaffinity).
import { admissionForbidden } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';
import { isPodCreateOrUpdate } from './pod-helpers.js';

const HOSTNAME = 'kubernetes.io/hostname';

export class LimitPodHardAntiAffinityTopology implements ValidatingPlugin {
  readonly name = 'LimitPodHardAntiAffinityTopology';

  validate(a: AdmissionAttributes): void {
    if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !isPodCreateOrUpdate(a.resource, a.subresource) || !a.object) return;
    const terms: Array<{ topologyKey?: string }> = a.object.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    for (const term of terms) {
      const key = term?.topologyKey ?? '';
      if (key !== HOSTNAME) throw admissionForbidden(a, `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${HOSTNAME} is allowed`);
    }
  }
}
