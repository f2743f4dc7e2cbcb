// CSIStorageCapacities (upstream 1.32: pkg/apis/storage/validation ValidateCSIStorageCapacity and
// ValidateCSIStorageCapacityUpdate, and pkg/registry/storage/csistoragecapacity): nodeTopology a valid label selector
// (an update may keep the invalid label values its stored one has, upstream's AllowInvalidLabelValueInSelector),
// storageClassName a DNS subdomain (an empty one too is "Invalid value", not "Required value"), capacity not negative
// (maximumVolumeSize is not checked). nodeTopology and storageClassName never change. Deprecated node labels in
// nodeTopology are warned of.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { type LabelSelector, validateLabelSelector } from '../../apimachinery/labels.js';
import { isDNS1123Subdomain } from '../../apimachinery/names.js';
import { formatQuantity } from '../../apimachinery/quantity.js';
import { deepEqual } from '../../apimachinery/semantic-equal.js';
import type { Strategy } from '../strategy.js';
import { asObj, str } from '../validation/field-checks.js';
import { goLabelSelector, invalidRendered } from '../validation/go-values.js';
import { IS_NEGATIVE_ERROR } from '../validation/numbers.js';
import { quantityOf } from '../validation/resources.js';
import { allowingInvalidSelectorValues } from './poddisruptionbudgets.js';
import { nodeLabelDeprecation, nodeSelectorTermWarnings } from './pod-warnings.js';

const topologyCauses = (c: KubeObject): StatusCause[] => validateLabelSelector(asObj(c.nodeTopology) as LabelSelector | undefined, 'nodeTopology');

function validateCapacity(c: KubeObject, allowInvalidLabelValueInSelector: boolean): StatusCause[] {
  const causes = allowingInvalidSelectorValues(topologyCauses(c), allowInvalidLabelValueInSelector);
  const className = str(c.storageClassName);
  for (const m of isDNS1123Subdomain(className)) causes.push(invalidValue('storageClassName', className, m));
  const capacity = quantityOf(c.capacity);
  if (capacity && capacity.nanos < 0n) causes.push(invalidValue('capacity', formatQuantity(capacity), IS_NEGATIVE_ERROR));
  return causes;
}

/** GetWarningsForCSIStorageCapacity (pkg/api/node's GetWarningsForNodeSelector): deprecated node labels in nodeTopology. */
function capacityWarnings(c: KubeObject): string[] {
  const topology = asObj(c.nodeTopology);
  if (!topology) return [];
  // its matchExpressions are warned of as a node selector term's are
  const out = nodeSelectorTermWarnings(topology, 'nodeTopology');
  for (const label of Object.keys(asObj(topology.matchLabels) ?? {})) {
    const msg = nodeLabelDeprecation(label);
    if (msg) out.push(`nodeTopology.matchLabels.${label}: ${msg}`);
  }
  return out;
}

export const csiStorageCapacityStrategy: Strategy = {
  validate: (c) => validateCapacity(c, false),
  updateValidationIsComplete: true,
  validateUpdate(c, old) {
    // upstream's hasInvalidLabelValueInLabelSelector: the stored selector fails validation at all
    const causes = validateCapacity(c, topologyCauses(old).length > 0);
    // a pointer: an empty selector is not an absent one
    if ((c.nodeTopology == null) !== (old.nodeTopology == null) || !deepEqual(c.nodeTopology, old.nodeTopology)) {
      causes.push(invalidRendered('nodeTopology', goLabelSelector(asObj(c.nodeTopology) as LabelSelector | undefined), 'field is immutable'));
    }
    const className = str(c.storageClassName);
    if (className !== str(old.storageClassName)) causes.push(invalidValue('storageClassName', className, 'field is immutable'));
    return causes;
  },
  warningsOnCreate: capacityWarnings,
  warningsOnUpdate: capacityWarnings,
};
