// Leases (upstream: ValidateLeaseSpec in pkg/apis/coordination/validation), on creates and updates alike: a positive
// leaseDurationSeconds and a non-negative leaseTransitions. Leases are renewed every few seconds by every node and
// controller: two comparisons, nothing allocated when the lease is valid. spec.strategy and spec.preferredHolder belong
// to the CoordinatedLeaderElection alpha, off in 1.32: as upstream's strategy with the gate off, a create drops them
// and an update keeps them only where the stored lease had them.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';
import { dropGatedFields } from './gated-fields.js';

const NONE: StatusCause[] = [];

function validateLease(lease: KubeObject): StatusCause[] {
  const spec = lease.spec;
  if (spec === null || typeof spec !== 'object') return NONE;
  const duration = spec.leaseDurationSeconds;
  const transitions = spec.leaseTransitions;
  const badDuration = typeof duration === 'number' && duration <= 0;
  const badTransitions = typeof transitions === 'number' && transitions < 0;
  if (!badDuration && !badTransitions) return NONE;
  const causes: StatusCause[] = [];
  if (badDuration) causes.push(invalidValue('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  if (badTransitions) causes.push(invalidValue('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return causes;
}

/** The fields of the CoordinatedLeaderElection alpha. */
const GATED = [['spec', 'strategy'], ['spec', 'preferredHolder']] as const;

export const leaseStrategy: Strategy = {
  validate: validateLease,
  prepareForCreate: (lease) => dropGatedFields(lease, undefined, GATED),
  prepareForUpdate: (lease, old) => dropGatedFields(lease, old, GATED),
};
