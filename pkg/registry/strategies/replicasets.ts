// ReplicaSets: upstream's ValidateReplicaSetSpec (pkg/apis/apps/validation) around the pod spec: replicas and
// minReadySeconds not negative, the selector and the template it must select, pods restarted Always.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import type { Strategy } from '../strategy.js';
import { nonNegative } from '../validation/numbers.js';
import { validateReplicaSetTemplate } from './deployments.js';
import { replicatedWarnings } from './workload-warnings.js';
import { immutableSelector } from './workloads.js';

export const validateReplicaSetSpec = (obj: KubeObject): StatusCause[] => [
  ...nonNegative(obj.spec?.replicas, 'spec.replicas'),
  ...nonNegative(obj.spec?.minReadySeconds, 'spec.minReadySeconds'),
  ...validateReplicaSetTemplate(obj),
];

export const replicaSetStrategy: Strategy = { validate: validateReplicaSetSpec, validateUpdate: immutableSelector, ...replicatedWarnings };
