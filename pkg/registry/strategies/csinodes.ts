// CSINodes (upstream 1.32: pkg/apis/storage/validation ValidateCSINode and ValidateCSINodeUpdate, and
// pkg/registry/storage/csinode): each driver named as a CSI driver, once; its nodeID given and at most 256 characters
// (AllowLongNodeID, as the strategy always sets it); an allocatable count not negative; topology keys that are
// qualified names, none twice (upstream reports them at the driver's path). A driver already there never changes: the
// whole driver is "field is immutable" at upstream's `CSINodeDriver`. Upstream's update validates the new object
// twice (the strategy and ValidateCSINodeUpdate both call ValidateCSINode), so an update's errors come twice, as here.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, required } from '../../apimachinery/field.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import { deepEqual } from '../../apimachinery/semantic-equal.js';
import type { Strategy } from '../strategy.js';
import { isObj, list, str } from '../validation/field-checks.js';
import { goPointer, goQuote, goStringSlice, goStruct, invalidRendered } from '../validation/go-values.js';
import { nonNegative } from '../validation/numbers.js';
import { checkCSIDriverName } from './persistentvolumes.js';

const MAX_NODE_ID = 256;

function validateDriver(driver: KubeObject, path: string, names: Set<string>, causes: StatusCause[]): void {
  const name = str(driver.name);
  checkCSIDriverName(causes, name, `${path}.name`);
  const nodeID = str(driver.nodeID);
  if (!nodeID) causes.push(required(`${path}.nodeID`));
  if (nodeID.length > MAX_NODE_ID) causes.push(invalidValue(`${path}.nodeID`, nodeID, `must be ${MAX_NODE_ID} characters or less`));
  if (isObj(driver.allocatable)) causes.push(...nonNegative(driver.allocatable.count, `${path}.allocatable.count`));
  if (names.has(name)) causes.push(duplicate(`${path}.name`, name));
  names.add(name);
  const keys = new Set<string>();
  for (const k of list(driver.topologyKeys)) {
    const key = str(k);
    if (!key) causes.push(required(path));
    if (keys.has(key)) causes.push(duplicate(path, key));
    keys.add(key);
    for (const m of isQualifiedName(key)) causes.push(invalidValue(path, key, m));
  }
}

/** validateCSINodeSpec. */
function validateCSINode(node: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  list(node.spec?.drivers).forEach((d, i) => validateDriver(isObj(d) ? d : {}, `spec.drivers[${i}]`, names, causes));
  return causes;
}

/** %#v of the internal storage.CSINodeDriver. */
const goDriver = (d: KubeObject): string => goStruct('storage.CSINodeDriver', [
  ['Name', goQuote(str(d.name))], ['NodeID', goQuote(str(d.nodeID))], ['TopologyKeys', goStringSlice(d.topologyKeys)],
  ['Allocatable', goPointer('storage.VolumeNodeResources', d.allocatable != null)],
]);

const drivers = (node: KubeObject): KubeObject[] => list(node.spec?.drivers).filter(isObj);

export const csiNodeStrategy: Strategy = {
  validate: validateCSINode,
  updateValidationIsComplete: true,
  validateUpdate(node, old) {
    const causes = [...validateCSINode(node), ...validateCSINode(node)];
    for (const before of drivers(old)) {
      for (const now of drivers(node)) {
        if (str(now.name) === str(before.name) && !deepEqual(now, before)) causes.push(invalidRendered('CSINodeDriver', goDriver(now), 'field is immutable'));
      }
    }
    return causes;
  },
};
