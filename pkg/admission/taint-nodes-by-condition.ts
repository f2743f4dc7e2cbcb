// TaintNodesByCondition: a new Node is tainted node.kubernetes.io/not-ready:NoSchedule, so nothing is scheduled to it
// before the node lifecycle controller has seen it Ready and lifted the taint (upstream:
// plugin/pkg/admission/nodetaint).
import { NOT_READY_TAINT } from './default-toleration-seconds.js';
import { isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';

export class TaintNodesByCondition implements MutatingPlugin {
  readonly name = 'TaintNodesByCondition';

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.subresource || !a.object || !isResource(a, '', 'nodes')) return;
    const spec = (a.object.spec ??= {});
    const taints = (Array.isArray(spec.taints) ? spec.taints : []) as { key?: string; effect?: string }[];
    // a taint matches another by key and effect (Taint.MatchTaint)
    if (taints.some((t) => t.key === NOT_READY_TAINT && t.effect === 'NoSchedule')) return;
    spec.taints = [...taints, { key: NOT_READY_TAINT, effect: 'NoSchedule' }];
  }
}
