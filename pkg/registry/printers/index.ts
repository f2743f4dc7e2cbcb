// The table printers of the built-in resources, looked up by API group and plural resource name.
// Resources upstream prints with the default convertor (roles, cluster roles, limit ranges, ...) are absent
// here on purpose and get the default NAME / CREATED AT table.
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './apps.js';
import { apiServicePrinter } from './apiregistration.js';
import { horizontalPodAutoscalerPrinter, scalePrinter } from './autoscaling.js';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { certificateSigningRequestPrinter } from './certificates.js';
import {
  leasePrinter,
  componentStatusPrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
  runtimeClassPrinter,
  webhookConfigurationPrinter,
  validatingAdmissionPolicyPrinter,
  validatingAdmissionPolicyBindingPrinter,
} from './cluster.js';
import { flowSchemaPrinter, priorityLevelPrinter } from './flowcontrol.js';
import { configMapPrinter, namespacePrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter } from './core.js';
import { defaultPrinter } from './default.js';
import { eventPrinter, eventsV1Printer } from './event.js';
import { ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './networking.js';
import { nodePrinter } from './node.js';
import { podPrinter, podTemplatePrinter } from './pod.js';
import { podSecurityPolicyPrinter } from './psp.js';
import { roleBindingPrinter } from './rbac.js';
import { endpointSlicePrinter, endpointsPrinter, servicePrinter } from './service.js';
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from './storage.js';
import type { Printer } from './types.js';

export type { Printer, TableColumnDefinition, TableRowCondition } from './types.js';
export { humanDuration } from './duration.js';

const printers: Record<string, Printer> = {
  '/pods': podPrinter,
  '/podtemplates': podTemplatePrinter,
  '/nodes': nodePrinter,
  '/namespaces': namespacePrinter,
  '/services': servicePrinter,
  '/endpoints': endpointsPrinter,
  '/configmaps': configMapPrinter,
  '/secrets': secretPrinter,
  '/serviceaccounts': serviceAccountPrinter,
  '/events': eventPrinter,
  '/resourcequotas': resourceQuotaPrinter,
  '/persistentvolumes': persistentVolumePrinter,
  '/persistentvolumeclaims': persistentVolumeClaimPrinter,
  '/replicationcontrollers': replicationControllerPrinter,
  'apiregistration.k8s.io/apiservices': apiServicePrinter,
  'apps/deployments': deploymentPrinter,
  'apps/replicasets': replicaSetPrinter,
  'apps/statefulsets': statefulSetPrinter,
  'apps/daemonsets': daemonSetPrinter,
  'apps/controllerrevisions': controllerRevisionPrinter,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerPrinter,
  'batch/jobs': jobPrinter,
  'batch/cronjobs': cronJobPrinter,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequestPrinter,
  'coordination.k8s.io/leases': leasePrinter,
  'events.k8s.io/events': eventsV1Printer,
  'rbac.authorization.k8s.io/rolebindings': roleBindingPrinter,
  'rbac.authorization.k8s.io/clusterrolebindings': roleBindingPrinter,
  'discovery.k8s.io/endpointslices': endpointSlicePrinter,
  'scheduling.k8s.io/priorityclasses': priorityClassPrinter,
  'policy/poddisruptionbudgets': podDisruptionBudgetPrinter,
  'policy/podsecuritypolicies': podSecurityPolicyPrinter,
  'networking.k8s.io/ingresses': ingressPrinter,
  'networking.k8s.io/ingressclasses': ingressClassPrinter,
  'networking.k8s.io/networkpolicies': networkPolicyPrinter,
  'storage.k8s.io/storageclasses': storageClassPrinter,
  'storage.k8s.io/csidrivers': csiDriverPrinter,
  'storage.k8s.io/csinodes': csiNodePrinter,
  'storage.k8s.io/csistoragecapacities': csiStorageCapacityPrinter,
  'storage.k8s.io/volumeattachments': volumeAttachmentPrinter,
  'node.k8s.io/runtimeclasses': runtimeClassPrinter,
  '/componentstatuses': componentStatusPrinter,
  'flowcontrol.apiserver.k8s.io/flowschemas': flowSchemaPrinter,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': priorityLevelPrinter,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/validatingadmissionpolicies': validatingAdmissionPolicyPrinter,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': validatingAdmissionPolicyBindingPrinter,
};

/** Printers of resources served at run time (custom resources), by group, version and plural. */
const dynamicPrinters = new Map<string, Printer>();

export function setDynamicPrinter(group: string, version: string, plural: string, printer: Printer | undefined): void {
  if (printer) dynamicPrinters.set(`${group}/${version}/${plural}`, printer);
  else dynamicPrinters.delete(`${group}/${version}/${plural}`);
}

/** The printer of a resource ("" is the core group), or the default NAME / CREATED AT printer. */
/** Printers of kinds that many resources serve as a subresource, by group and kind. */
const subresourcePrinters: Record<string, Printer> = { 'autoscaling/Scale': scalePrinter };

/**
 * `served`: the group and kind a subresource answers with, when they are its own (a Scale of deployments). As
 * upstream's subresources print with their resource's table convertor: a custom resource's columns, else the
 * built-in printer of that kind.
 */
export function printerFor(group: string, plural: string, version?: string, served?: { group: string; kind: string }): Printer {
  const dynamic = version === undefined ? undefined : dynamicPrinters.get(`${group}/${version}/${plural}`);
  return dynamic ?? (served && subresourcePrinters[`${served.group}/${served.kind}`]) ?? printers[`${group}/${plural}`] ?? defaultPrinter;
}
