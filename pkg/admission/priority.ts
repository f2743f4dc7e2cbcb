// Priority: a new pod's spec.priority (and preemptionPolicy) come from its PriorityClass, or from
// the global default class; only one class may be the global default (upstream:
// plugin/pkg/admission/priority). The system classes are created at start (pkg/apiserver/bootstrap.ts).
import type { KubeObject } from '../../api/types.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';

const GROUP = 'scheduling.k8s.io';

/** Upstream's built-in classes (scheduling.SystemPriorityClasses), created at start. */
export const SYSTEM_PRIORITY_CLASSES: KubeObject[] = [
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

export class Priority implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'Priority';

  constructor(private readonly deps: Pick<AdmissionDeps, 'get' | 'list'>) {}

  admit(a: AdmissionAttributes): void {
    if (a.subresource || !isResource(a, '', 'pods') || !a.object) return;
    const spec = (a.object.spec ??= {});
    if (a.operation === 'UPDATE') {
      // Set on create; an update that leaves them out keeps them (validation refuses changes).
      const old = a.oldObject?.spec ?? {};
      if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    if (a.operation !== 'CREATE') return;
    // Without any class, upstream's getDefaultPriority answers priority 0 and PreemptLowerPriority.
    let priority = 0;
    let policy: string | undefined = 'PreemptLowerPriority';
    if (!spec.priorityClassName) {
      const def = this.globalDefault();
      if (def) {
        spec.priorityClassName = def.metadata!.name;
        priority = def.value ?? 0;
        policy = def.preemptionPolicy;
      }
    } else {
      const pc = this.deps.get(GROUP, 'priorityclasses', undefined, spec.priorityClassName);
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
      priority = pc.value ?? 0;
      policy = pc.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
      throw admissionForbidden(a, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
    }
    spec.priority = priority;
    if (policy) {
      if (spec.preemptionPolicy && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(a, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
      }
      spec.preemptionPolicy = policy;
    }
  }

  validate(a: AdmissionAttributes): void {
    if (a.subresource || !isResource(a, GROUP, 'priorityclasses') || !a.object) return;
    if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object.globalDefault) return;
    const def = this.globalDefault();
    if (def && (a.operation === 'CREATE' || def.metadata?.name !== a.object.metadata?.name)) {
      throw admissionForbidden(a, `PriorityClass ${def.metadata?.name} is already marked as default. Only one default can exist`);
    }
  }

  /** With more than one (a race), the one of lowest value, as upstream picks. */
  private globalDefault(): KubeObject | undefined {
    let best: KubeObject | undefined;
    for (const pc of this.deps.list(GROUP, 'priorityclasses')) {
      if (pc.globalDefault && (!best || (pc.value ?? 0) < (best.value ?? 0))) best = pc;
    }
    return best;
  }
}
