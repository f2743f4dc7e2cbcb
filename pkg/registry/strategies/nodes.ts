// Nodes (upstream: pkg/registry/core/node, ValidateNode and ValidateNodeUpdate): taints with a label name for a key, a
// label value and a known effect, unique by key and effect (reported under metadata.taints, as upstream's path has
// them); pod ranges that are CIDRs, at most one per IP family and no repeat. A pod range, once given, never changes
// (node-ipam hands out each block once; a second writer is refused, not obeyed), nor does a provider ID.
import { podCidrsOf } from '../../../api/core/v1/node-pod-cidrs.js';
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, internalError, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { isValidLabelValue } from '../../apimachinery/names.js';
import { validateLabelName } from '../../apimachinery/objectmeta.js';
import type { Strategy } from '../strategy.js';
import { isObj, list, str } from '../validation/field-checks.js';
import { goPointer, goQuote, goStruct } from '../validation/go-values.js';
import { isIPv6String, isValidCIDR, validateCIDR } from '../validation/network.js';
import { TAINT_EFFECTS } from '../validation/tolerations.js';

/** validateNodeTaints, at upstream's `metadata.taints` (ValidateNode passes the metadata's path). */
function validateTaints(taints: readonly unknown[]): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const taint = isObj(t) ? t : {};
    const at = `metadata.taints[${i}]`;
    const key = str(taint.key);
    const value = str(taint.value);
    const effect = str(taint.effect);
    causes.push(...validateLabelName(key, `${at}.key`));
    const bad = isValidLabelValue(value);
    if (bad.length) causes.push(invalidValue(`${at}.value`, value, bad.join(';')));
    if (!effect) causes.push(required(`${at}.effect`));
    else if (!TAINT_EFFECTS.includes(effect)) causes.push(notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      const rendered = goStruct('core.Taint', [
        ['Key', goQuote(key)], ['Value', goQuote(value)], ['Effect', goQuote(effect)], ['TimeAdded', goPointer('v1.Time', taint.timeAdded != null)],
      ]);
      causes.push(fieldCause('FieldValueDuplicate', at, `Duplicate value: ${rendered}: taints must be unique by key and effect pair`));
      return;
    }
    seen.set(effect, keys.add(key));
  });
  return causes;
}

/** ValidateNode's pod ranges: each a CIDR, one per IP family at most, none twice. */
function validatePodCidrs(cidrs: string[]): StatusCause[] {
  const at = 'spec.podCIDRs';
  const causes = cidrs.flatMap((c, i) => validateCIDR(c, `${at}[${i}]`));
  if (cidrs.length < 2) return causes;
  const unparsable = cidrs.findIndex((c) => !isValidCIDR(c));
  // netutils.IsDualStackCIDRStrings stops at the first range it cannot parse, with ParseCIDRs' error
  if (unparsable >= 0) {
    const detail = `invalid CIDR[${unparsable}]: <nil> (invalid CIDR address: ${cidrs[unparsable]})`;
    causes.push(internalError(at, `invalid PodCIDRs. failed to check with dual stack with error:${detail}`));
  }
  const v6 = cidrs.filter((c) => isIPv6String(c.slice(0, c.indexOf('/')))).length;
  const dualStack = unparsable < 0 && v6 > 0 && v6 < cidrs.length;
  if (!dualStack || cidrs.length > 2) causes.push(invalidValue(at, cidrs, 'may specify no more than one CIDR for each IP family'));
  const seen = new Set<string>();
  cidrs.forEach((c, i) => {
    if (seen.has(c)) causes.push(duplicate(`${at}[${i}]`, c));
    seen.add(c);
  });
  return causes;
}

/** ValidateNode, of every create and update but a status update's (upstream's status strategy leaves it out). */
function validateNode(node: KubeObject): StatusCause[] {
  const taints = list(isObj(node.spec) ? node.spec.taints : undefined);
  const cidrs = podCidrsOf(node);
  return [...(taints.length ? validateTaints(taints) : []), ...(cidrs.length ? validatePodCidrs(cidrs) : [])];
}

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
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
};
