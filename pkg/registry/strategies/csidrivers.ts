// CSIDrivers (upstream 1.32: pkg/apis/storage/validation ValidateCSIDriver and ValidateCSIDriverUpdate, and
// pkg/registry/storage/csidriver): attachRequired, podInfoOnMount, storageCapacity and seLinuxMount set (the defaults
// set them; SELinuxMountReadWriteOncePod is on in 1.32; attachRequired is reported at upstream's
// `spec.attachedRequired`), a known fsGroupPolicy, token requests for distinct audiences that last 10 minutes to 2^32
// seconds, volumeLifecycleModes Persistent or Ephemeral. attachRequired and volumeLifecycleModes never change (the
// other fields are mutable since 1.29). A change of the spec raises metadata.generation, which a create leaves unset.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { deepEqual } from '../../apimachinery/semantic-equal.js';
import type { Strategy } from '../strategy.js';
import { isObj, list, str } from '../validation/field-checks.js';
import { goStringSlice, invalidRendered } from '../validation/go-values.js';

/** sets.List order. */
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 10 * 60;
const MAX_TOKEN_SECONDS = 2 ** 32;
/** The booleans that must be set, with where upstream reports each. */
const REQUIRED_FLAGS: readonly [string, string][] = [
  ['attachRequired', 'spec.attachedRequired'], ['podInfoOnMount', 'spec.podInfoOnMount'], ['storageCapacity', 'spec.storageCapacity'],
];

function validateTokenRequests(requests: unknown, causes: StatusCause[]): void {
  const audiences = new Set<string>();
  list(requests).forEach((r, i) => {
    const request = isObj(r) ? r : {};
    const path = `spec.tokenRequests[${i}]`;
    const audience = str(request.audience);
    if (audiences.has(audience)) {
      causes.push(duplicate(`${path}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = request.expirationSeconds;
    if (typeof seconds !== 'number') return;
    if (seconds < MIN_TOKEN_SECONDS) causes.push(invalidValue(`${path}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > MAX_TOKEN_SECONDS) causes.push(invalidValue(`${path}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
}

/** validateCSIDriverSpec. */
function validateCSIDriverSpec(driver: KubeObject): StatusCause[] {
  const spec = isObj(driver.spec) ? driver.spec : {};
  const causes: StatusCause[] = [];
  for (const [key, path] of REQUIRED_FLAGS) if (spec[key] == null) causes.push(required(path));
  const policy = spec.fsGroupPolicy;
  if (policy != null && !FS_GROUP_POLICIES.includes(policy)) causes.push(notSupported('spec.fsGroupPolicy', policy, FS_GROUP_POLICIES));
  validateTokenRequests(spec.tokenRequests, causes);
  for (const mode of list(spec.volumeLifecycleModes)) {
    if (!LIFECYCLE_MODES.includes(mode as string)) causes.push(notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  }
  if (spec.seLinuxMount == null) causes.push(required('spec.seLinuxMount'));
  return causes;
}

export const csiDriverStrategy: Strategy = {
  validate: validateCSIDriverSpec,
  updateValidationIsComplete: true,
  validateUpdate(driver, old) {
    const causes = validateCSIDriverSpec(driver);
    const attach = driver.spec?.attachRequired ?? null;
    if (attach !== (old.spec?.attachRequired ?? null)) causes.push(invalidValue('spec.attachedRequired', attach, 'field is immutable'));
    const modes = driver.spec?.volumeLifecycleModes;
    if (!deepEqual(modes, old.spec?.volumeLifecycleModes)) causes.push(invalidRendered('spec.volumeLifecycleModes', goStringSlice(modes).replace('[]string', '[]storage.VolumeLifecycleMode'), 'field is immutable'));
    return causes;
  },
  prepareForUpdate(driver, old) {
    // upstream's PrepareForUpdate: old generation + 1 whenever the spec changes
    if (!deepEqual(driver.spec, old.spec)) (driver.metadata ??= {}).generation = (old.metadata?.generation ?? 0) + 1;
  },
};
