// RuntimeClass (upstream: plugin/pkg/admission/runtimeclass): a new pod naming a RuntimeClass gets the class's pod
// overhead and its scheduling constraints (nodeSelector merged, conflicts refused; tolerations added), and is
// refused when the class does not exist or the pod states an overhead the class does not define.
import type { KubeObject } from '../../api/types.js';
import { jsonEqual } from '../apimachinery/json-equal.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';

const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

export class RuntimeClass implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'RuntimeClass';

  constructor(private readonly deps: Pick<AdmissionDeps, 'get'>) {}

  /** The pod's class, for a pod create naming one; undefined when there is nothing to do. */
  private classOf(a: AdmissionAttributes): { pod: KubeObject; rc?: KubeObject } | undefined {
    if (a.operation !== 'CREATE' || a.subresource || !isResource(a, '', 'pods') || !a.object) return undefined;
    const name = a.object.spec?.runtimeClassName as string | undefined;
    if (!name) return { pod: a.object };
    const rc = this.deps.get('node.k8s.io', 'runtimeclasses', undefined, name);
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
    return { pod: a.object, rc };
  }

  admit(a: AdmissionAttributes): void {
    const found = this.classOf(a);
    if (!found?.rc) return;
    const { pod, rc } = found;
    const spec = (pod.spec ??= {});
    const podFixed = rc.overhead?.podFixed as Record<string, string> | undefined;
    if (podFixed) {
      if (spec.overhead && !jsonEqual(spec.overhead, podFixed)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
      spec.overhead = { ...podFixed };
    }
    const selector = rc.scheduling?.nodeSelector as Record<string, string> | undefined;
    if (selector) {
      const merged: Record<string, string> = { ...spec.nodeSelector };
      for (const [k, v] of Object.entries(selector)) {
        if (merged[k] !== undefined && merged[k] !== v) {
          throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${merged[k]}`);
        }
        merged[k] = v;
      }
      spec.nodeSelector = merged;
    }
    const tolerations = (rc.scheduling?.tolerations ?? []) as KubeObject[];
    if (tolerations.length) {
      const have = (spec.tolerations ?? []) as KubeObject[];
      spec.tolerations = [...have, ...tolerations.filter((t) => !have.some((h) => jsonEqual(h, t)))];
    }
  }

  validate(a: AdmissionAttributes): void {
    const found = this.classOf(a);
    if (!found) return;
    const overhead = found.pod.spec?.overhead as Record<string, string> | undefined;
    const podFixed = found.rc?.overhead?.podFixed as Record<string, string> | undefined;
    if (podFixed && !jsonEqual(overhead ?? null, podFixed)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
    if (!podFixed && overhead) throw admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  }
}
