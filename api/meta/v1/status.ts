// Status (the error/result envelope), delete options, preconditions, watch events and patches.
import { arr, bool, int32, int64, obj, ref, str, type Definitions } from '../../schema.js';
import { sharedGvks } from './gvks.js';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const apiVersion = str('APIVersion defines the versioned schema of this representation of an object.');
const kindField = str('Kind is a string value representing the REST resource this object represents.');

export const statusDefinitions: Definitions = {
  [`${M}Status`]: obj({
    apiVersion,
    code: int32('Suggested HTTP status code.'),
    details: ref(`${M}StatusDetails`, 'Extended data about the reason.'),
    kind: kindField,
    message: str('Human-readable description of the status.'),
    metadata: ref(`${M}ListMeta`, 'Standard list metadata.'),
    reason: str('Machine-readable CamelCase reason for a Failure status.'),
    status: str('Success or Failure.'),
  }, 'Result of a call that does not return an object.', {
    'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Status' }],
  }),

  [`${M}StatusDetails`]: obj({
    causes: arr(ref(`${M}StatusCause`), 'Detailed causes of the error.'),
    group: str('Group of the resource the status is about.'),
    kind: str('Kind of the resource the status is about.'),
    name: str('Name of the resource the status is about.'),
    retryAfterSeconds: int32('Seconds the client should wait before retrying.'),
    uid: str('UID of the resource the status is about.'),
  }, 'Extra detail of a Status.'),

  [`${M}StatusCause`]: obj({
    field: str('Path of the field that caused the error, such as "spec.containers[0].name".'),
    message: str('Human-readable description of the cause.'),
    reason: str('Machine-readable reason of the cause.'),
  }, 'One cause of an error.'),

  [`${M}DeleteOptions`]: obj({
    apiVersion,
    dryRun: arr(str(undefined, { default: '' }), 'When "All", nothing is persisted.'),
    gracePeriodSeconds: int64('Seconds before the object is deleted; zero deletes at once.'),
    ignoreStoreReadErrorWithClusterBreakingPotential: bool('Delete an object that cannot be read from storage (unsafe).'),
    kind: kindField,
    orphanDependents: bool('Deprecated: orphan the dependents; use propagationPolicy.'),
    preconditions: ref(`${M}Preconditions`, 'Must hold for the deletion to proceed, else 409 Conflict.'),
    propagationPolicy: str('Garbage collection policy: Orphan, Background or Foreground.'),
  }, 'Options of a delete request.', { 'x-kubernetes-group-version-kind': sharedGvks('DeleteOptions') }),

  [`${M}Preconditions`]: obj({
    resourceVersion: str('The resourceVersion the object must have.'),
    uid: str('The UID the object must have.'),
  }, 'Conditions that must hold before an operation.'),

  [`${M}WatchEvent`]: obj({
    object: ref('io.k8s.apimachinery.pkg.runtime.RawExtension', 'The object (or a Status for ERROR).'),
    type: str('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.', { default: '' }),
  }, 'One event of a watch stream.', {
    required: ['type', 'object'],
    'x-kubernetes-group-version-kind': sharedGvks('WatchEvent'),
  }),

  [`${M}Patch`]: { type: 'object', description: 'The body of a PATCH request, in the format its Content-Type names.' },
};
