// Which strategy each built-in resource gets. Kinds not listed use the generic behaviour, with
// metadata.generation for the kinds that have a spec a controller reconciles.
import type { ResourceType } from '../../../api/types.js';
import type { Strategy } from '../strategy.js';
import { validatingAdmissionPolicyBindingStrategy, validatingAdmissionPolicyStrategy } from './admission-policies.js';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from './admission-webhooks.js';
import { apiServiceStrategy } from './apiservices.js';
import { certificateSigningRequestStrategy } from './certificatesigningrequests.js';
import { coreEventStrategy, eventsV1Strategy } from './events.js';
import { flowSchemaStrategy, priorityLevelStrategy } from './flowcontrol.js';
import { horizontalPodAutoscalerStrategy } from './horizontalpodautoscalers.js';
import { configMapStrategy } from './configmaps.js';
import { cronJobStrategy } from './cronjobs.js';
import { csiDriverStrategy } from './csidrivers.js';
import { csiNodeStrategy } from './csinodes.js';
import { csiStorageCapacityStrategy } from './csistoragecapacities.js';
import { daemonSetStrategy } from './daemonsets.js';
import { deploymentStrategy } from './deployments.js';
import { jobStrategy } from './jobs.js';
import { ingressClassStrategy } from './ingressclasses.js';
import { ingressStrategy } from './ingresses.js';
import { networkPolicyStrategy } from './networkpolicies.js';
import { podDisruptionBudgetStrategy } from './poddisruptionbudgets.js';
import { namespaceStrategy } from './namespaces.js';
import { persistentVolumeClaimStrategy } from './persistentvolumeclaims.js';
import { endpointsStrategy } from './endpoints.js';
import { endpointSliceStrategy } from './endpointslices.js';
import { leaseStrategy } from './leases.js';
import { limitRangeStrategy } from './limitranges.js';
import { priorityClassStrategy } from './priorityclasses.js';
import { resourceQuotaStrategy } from './resourcequotas.js';
import { storageClassStrategy } from './storageclasses.js';
import { persistentVolumeStrategy } from './persistentvolumes.js';
import { withPodSpecChecks } from './pod-spec-kinds.js';
import { podStrategy } from './pods.js';
import { podTemplateStrategy } from './podtemplates.js';
import { podSecurityPolicyStrategy } from './psp.js';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategy } from './rbac.js';
import { runtimeClassStrategy } from './runtimeclasses.js';
import { nodeStrategy } from './nodes.js';
import { replicaSetStrategy } from './replicasets.js';
import { replicationControllerStrategy } from './replicationcontrollers.js';
import { secretStrategy } from './secrets.js';
import { statefulSetStrategy } from './statefulsets.js';
import { volumeAttachmentStrategy } from './volumeattachments.js';

/** Kinds whose metadata.generation tracks spec changes (upstream strategies that bump it). */
const GENERATION = new Set([
  '/replicationcontrollers', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets',
  'batch/jobs', 'batch/cronjobs', 'autoscaling/horizontalpodautoscalers', 'policy/poddisruptionbudgets', 'networking.k8s.io/ingresses',
  'networking.k8s.io/networkpolicies', 'networking.k8s.io/ingressclasses', 'scheduling.k8s.io/priorityclasses',
  'flowcontrol.apiserver.k8s.io/flowschemas', 'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
  'discovery.k8s.io/endpointslices',
]);

/** Upstream's deployment strategy: "annotation updates bump the generation because annotations are copied from deployments to their replica sets". */
const GENERATION_BY_ANNOTATIONS = new Set(['apps/deployments']);

/** Upstream's EndpointSlice strategy: its labels (the service it serves, its manager) change how it is read. */
const GENERATION_BY_LABELS = new Set(['discovery.k8s.io/endpointslices']);

/** Kinds whose DELETE answers the object deleted, where the others answer a Success Status (upstream's stores with ReturnDeletedObject). */
const RETURN_DELETED_OBJECT = new Set([
  '/pods', '/namespaces', '/services', '/serviceaccounts', '/podtemplates', '/resourcequotas', '/persistentvolumes',
  '/persistentvolumeclaims', 'storage.k8s.io/storageclasses', 'storage.k8s.io/csidrivers', 'storage.k8s.io/csinodes',
  'storage.k8s.io/volumeattachments', 'policy/podsecuritypolicies',
]);

/** Kinds a PUT may create (upstream: AllowCreateOnUpdate true). */
const CREATE_ON_UPDATE = new Set([
  '/endpoints', '/events', 'events.k8s.io/events', 'coordination.k8s.io/leases', 'rbac.authorization.k8s.io/roles',
  'rbac.authorization.k8s.io/rolebindings', 'rbac.authorization.k8s.io/clusterroles', 'rbac.authorization.k8s.io/clusterrolebindings',
]);

/**
 * Kinds a PUT must name the resourceVersion of (upstream: AllowUnconditionalUpdate false; the other built-ins
 * overwrite). CRDs and custom resources say so in their own strategies.
 */
const CONDITIONAL_UPDATE_ONLY = new Set([
  'policy/poddisruptionbudgets', 'coordination.k8s.io/leases', 'node.k8s.io/runtimeclasses', 'storage.k8s.io/csidrivers',
  'storage.k8s.io/csinodes', 'storage.k8s.io/csistoragecapacities', 'storage.k8s.io/volumeattachments',
  'admissionregistration.k8s.io/mutatingwebhookconfigurations', 'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'admissionregistration.k8s.io/validatingadmissionpolicies', 'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'apiregistration.k8s.io/apiservices',
]);

const SPECIFIC: Record<string, Strategy> = {
  '/pods': podStrategy,
  '/podtemplates': podTemplateStrategy,
  '/nodes': nodeStrategy,
  '/persistentvolumes': persistentVolumeStrategy,
  '/persistentvolumeclaims': persistentVolumeClaimStrategy,
  '/resourcequotas': resourceQuotaStrategy,
  '/limitranges': limitRangeStrategy,
  'scheduling.k8s.io/priorityclasses': priorityClassStrategy,
  'storage.k8s.io/storageclasses': storageClassStrategy,
  'coordination.k8s.io/leases': leaseStrategy,
  'discovery.k8s.io/endpointslices': endpointSliceStrategy,
  '/endpoints': endpointsStrategy,
  'apiregistration.k8s.io/apiservices': apiServiceStrategy,
  '/namespaces': namespaceStrategy,
  '/secrets': secretStrategy,
  'policy/podsecuritypolicies': podSecurityPolicyStrategy,
  '/configmaps': configMapStrategy,
  '/replicationcontrollers': replicationControllerStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'apps/deployments': { ...deploymentStrategy, statusKeepsMetadata: ['labels'] },
  'storage.k8s.io/volumeattachments': volumeAttachmentStrategy,
  'storage.k8s.io/csidrivers': csiDriverStrategy,
  'storage.k8s.io/csinodes': csiNodeStrategy,
  'storage.k8s.io/csistoragecapacities': csiStorageCapacityStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerStrategy,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequestStrategy,
  'node.k8s.io/runtimeclasses': runtimeClassStrategy,
  '/events': coreEventStrategy,
  'flowcontrol.apiserver.k8s.io/flowschemas': flowSchemaStrategy,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': priorityLevelStrategy,
  'events.k8s.io/events': eventsV1Strategy,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': mutatingWebhookConfigurationStrategy,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': validatingWebhookConfigurationStrategy,
  'admissionregistration.k8s.io/validatingadmissionpolicies': validatingAdmissionPolicyStrategy,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': validatingAdmissionPolicyBindingStrategy,
  'rbac.authorization.k8s.io/roles': roleStrategy,
  'rbac.authorization.k8s.io/clusterroles': clusterRoleStrategy,
  'rbac.authorization.k8s.io/rolebindings': roleBindingStrategy,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
  'networking.k8s.io/ingresses': ingressStrategy,
  'networking.k8s.io/ingressclasses': ingressClassStrategy,
  'networking.k8s.io/networkpolicies': networkPolicyStrategy,
};

/**
 * `extra` supplies strategies that need server state (services need the IP allocator); every pod spec is validated,
 * and with `allowPrivileged` false (kube-apiserver's --allow-privileged default) refuses privileged containers.
 */
export function strategyFor(rt: ResourceType, extra: Record<string, Strategy> = {}, allowPrivileged = true): Strategy {
  const key = `${rt.group}/${rt.plural}`;
  const specific = extra[key] ?? SPECIFIC[key] ?? {};
  const base = withPodSpecChecks(key, specific, allowPrivileged);
  return {
    generation: GENERATION.has(key),
    annotationsRaiseGeneration: GENERATION_BY_ANNOTATIONS.has(key),
    labelsRaiseGeneration: GENERATION_BY_LABELS.has(key),
    allowCreateOnUpdate: CREATE_ON_UPDATE.has(key),
    allowUnconditionalUpdate: !CONDITIONAL_UPDATE_ONLY.has(key),
    returnDeletedObject: RETURN_DELETED_OBJECT.has(key),
    ...base,
  };
}
