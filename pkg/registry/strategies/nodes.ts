// Nodes (upstream: pkg/registry/core/node and ValidateNodeUpdate): a pod range, once given, never changes (node-ipam
// hands out each block once; a second writer is refused, not obeyed), nor does a provider ID.
import { podCidrsOf } from '../../../api/core/v1/node-pod-cidrs.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

/** spec.podCIDRs, or the older spec.podCIDR alone. */
function validateNodeUpdate(node: KubeObject, old: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const before = podCidrsOf(old);
  const after = podCidrsOf(node);
  if (before.length && (before.length !== after.length || before.some((c, i) => c !== after[i]))) {
    causes.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  if (old.spec?.providerID && old.spec.providerID !== node.spec?.providerID) {
    causes.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return causes;
}

export const nodeStrategy: Strategy = {
  keepStatusOnCreate: true,
  validateUpdate: validateNodeUpdate,
};
