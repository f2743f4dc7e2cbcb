// DefaultTolerationSeconds: new pods tolerate the not-ready and unreachable NoExecute taints for
// 300 s unless they already say otherwise (upstream: plugin/pkg/admission/defaulttolerationseconds).
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';
import { isPodCreateOrUpdate } from './pod-helpers.js';

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';

type Toleration = { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number };

export class DefaultTolerationSeconds implements MutatingPlugin {
  readonly name = 'DefaultTolerationSeconds';

  constructor(
    private readonly notReadySeconds = 300,
    private readonly unreachableSeconds = 300,
  ) {}

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || !isPodCreateOrUpdate(a.resource, a.subresource) || !a.object) return;
    const spec = (a.object.spec ??= {});
    const tolerations: Toleration[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
    const tolerates = (key: string): boolean => tolerations.some((t) =>
      (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'));
    const add: Toleration[] = [];
    if (!tolerates(NOT_READY_TAINT)) add.push({ key: NOT_READY_TAINT, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: this.notReadySeconds });
    if (!tolerates(UNREACHABLE_TAINT)) add.push({ key: UNREACHABLE_TAINT, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: this.unreachableSeconds });
    if (add.length) spec.tolerations = [...tolerations, ...add];
  }
}
