// Object and list metadata, owner references, managed fields, label selectors and conditions.
import { anyObj, arr, bool, int64, mapList, obj, ref, setOf, str, strMap, type Definitions } from '../../schema.js';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const time = (description: string) => ref(`${M}Time`, description);

export const objectDefinitions: Definitions = {
  [`${M}ObjectMeta`]: obj({
    annotations: strMap('Unstructured key/value data kept with the object.'),
    creationTimestamp: time('When the server created the object.'),
    deletionGracePeriodSeconds: int64('Seconds the object has left to terminate gracefully once deletion began.'),
    deletionTimestamp: time('When the object will be deleted; set by the server on a graceful delete.'),
    finalizers: setOf(str(undefined, { default: '' }), 'Conditions that must be cleared before the object is removed.',
      { 'x-kubernetes-patch-strategy': 'merge' }),
    generateName: str('Prefix the server uses to generate a unique name when name is empty.'),
    generation: int64('Sequence number of the desired state, bumped on every spec change.'),
    labels: strMap('Key/value pairs used to select and organise objects.'),
    managedFields: arr(ref(`${M}ManagedFieldsEntry`), 'Which manager owns which fields (server-side apply).'),
    name: str('Name, unique within a namespace.'),
    namespace: str('The namespace the object lives in.'),
    ownerReferences: mapList(ref(`${M}OwnerReference`), 'uid', 'Objects this object depends on.'),
    resourceVersion: str('Opaque version of the object, used for optimistic concurrency and watches.'),
    selfLink: str('Deprecated; always empty.'),
    uid: str('Unique identifier of the object over its whole lifetime.'),
  }, 'Metadata every persisted object has.'),

  [`${M}ListMeta`]: obj({
    continue: str('Token to fetch the next page of a paginated list.'),
    remainingItemCount: int64('Estimated number of items left after this page.'),
    resourceVersion: str('Revision the list was served at.'),
    selfLink: str('Deprecated; always empty.'),
  }, 'Metadata of a list.'),

  [`${M}OwnerReference`]: obj({
    apiVersion: str('API version of the owner.', { default: '' }),
    blockOwnerDeletion: bool('Whether foreground deletion of the owner waits for this object.'),
    controller: bool('Whether the owner is the managing controller.'),
    kind: str('Kind of the owner.', { default: '' }),
    name: str('Name of the owner.', { default: '' }),
    uid: str('UID of the owner.', { default: '' }),
  }, 'Points at an owning object in the same namespace.', {
    required: ['apiVersion', 'kind', 'name', 'uid'],
    'x-kubernetes-map-type': 'atomic',
  }),

  [`${M}ManagedFieldsEntry`]: obj({
    apiVersion: str('Version of the resource the fields were written in.'),
    fieldsType: str('Format of fieldsV1; only "FieldsV1".'),
    fieldsV1: ref(`${M}FieldsV1`, 'The set of fields owned.'),
    manager: str('Name of the workflow managing the fields.'),
    operation: str('Operation that produced this entry: Apply or Update.'),
    subresource: str('Subresource the fields were written through.'),
    time: time('When the fields were last changed by this manager.'),
  }, 'The fields one manager owns.'),

  [`${M}FieldsV1`]: anyObj('A set of field paths encoded as a JSON trie.'),

  [`${M}LabelSelector`]: obj({
    matchExpressions: arr(ref(`${M}LabelSelectorRequirement`), 'Requirements, all of which must match.'),
    matchLabels: strMap('Labels that must all match exactly.'),
  }, 'A label query; an empty selector matches everything, a null one nothing.', { 'x-kubernetes-map-type': 'atomic' }),

  [`${M}LabelSelectorRequirement`]: obj({
    key: str('The label key the requirement applies to.', { default: '' }),
    operator: str('In, NotIn, Exists or DoesNotExist.', { default: '' }),
    values: arr(str(undefined, { default: '' }), 'Values for In and NotIn; empty for Exists and DoesNotExist.'),
  }, 'One requirement of a label selector.', { required: ['key', 'operator'] }),

  [`${M}Condition`]: obj({
    lastTransitionTime: time('When the condition last changed status.'),
    message: str('Human-readable detail of the transition.', { default: '' }),
    observedGeneration: int64('The generation the condition was computed for.'),
    reason: str('CamelCase reason of the last transition.', { default: '' }),
    status: str('True, False or Unknown.', { default: '' }),
    type: str('Type of the condition, CamelCase.', { default: '' }),
  }, 'One aspect of the current state of a resource.', {
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  }),
};
