// The few built-in kinds this library itself reads and writes, typed (other kinds travel as KubeObject).
import type { KubeObject, ObjectMeta } from '../../api/types.js';

export type { KubeObject, ObjectMeta, OwnerReference } from '../../api/types.js';

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface Lease extends KubeObject {
  metadata?: ObjectMeta;
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
    strategy?: string;
    preferredHolder?: string;
  };
}

export interface CoreEvent extends KubeObject {
  metadata?: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type?: 'Normal' | 'Warning' | string;
  eventTime?: string | null;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

export { formatMicroTime, formatTime } from '../apimachinery/time.js';
