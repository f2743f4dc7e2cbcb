// Protobuf field numbers of meta.k8s.io/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const metaV1: ProtoFields = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup': {
    1: 'name*', 2: 'versions', 3: 'preferredVersion', 4: 'serverAddressByClientCIDRs',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList': { 1: 'groups' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource': {
    1: 'name*', 2: 'namespaced*', 3: 'kind*', 5: 'shortNames', 6: 'singularName*', 7: 'categories', 8: 'group',
    9: 'version', 10: 'storageVersionHash',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList': { 1: 'groupVersion*', 2: 'resources' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions': { 1: 'versions', 2: 'serverAddressByClientCIDRs' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': {
    1: 'type*', 2: 'status*', 3: 'observedGeneration', 4: 'lastTransitionTime', 5: 'reason*', 6: 'message*',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
    1: 'gracePeriodSeconds*', 2: 'preconditions', 3: 'orphanDependents*', 4: 'propagationPolicy*', 5: 'dryRun',
    6: 'ignoreStoreReadErrorWithClusterBreakingPotential*',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery': { 1: 'groupVersion*', 2: 'version*' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': { 1: 'matchLabels', 2: 'matchExpressions' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { 1: 'key*', 2: 'operator*', 3: 'values' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': {
    1: 'selfLink', 2: 'resourceVersion', 3: 'continue', 4: 'remainingItemCount*',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': {
    1: 'manager', 2: 'operation', 3: 'apiVersion', 4: 'time', 6: 'fieldsType', 7: 'fieldsV1', 8: 'subresource',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    1: 'name', 2: 'generateName', 3: 'namespace', 4: 'selfLink', 5: 'uid', 6: 'resourceVersion', 7: 'generation',
    8: 'creationTimestamp', 9: 'deletionTimestamp', 10: 'deletionGracePeriodSeconds*', 11: 'labels',
    12: 'annotations', 13: 'ownerReferences', 14: 'finalizers', 17: 'managedFields',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': {
    1: 'kind*', 3: 'name*', 4: 'uid*', 5: 'apiVersion*', 6: 'controller*', 7: 'blockOwnerDeletion*',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': {},
  'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions': { 1: 'uid*', 2: 'resourceVersion*' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR': { 1: 'clientCIDR*', 2: 'serverAddress*' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status': {
    1: 'metadata', 2: 'status', 3: 'message', 4: 'reason', 5: 'details', 6: 'code',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause': { 1: 'reason', 2: 'message', 3: 'field' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails': {
    1: 'name', 2: 'group', 3: 'kind', 4: 'causes', 5: 'retryAfterSeconds', 6: 'uid',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent': { 1: 'type*', 2: 'object' },
};
