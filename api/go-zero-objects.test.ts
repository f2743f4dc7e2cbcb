// The kinds' zero objects, made from go-zero-values.ts, against what encoding/json writes for them after `metadata`
// (the bookmark objects' text that api/go-zero-objects.ts held as a table before it was derived, from the same v0.32
// types): field order, nulls and all. With the conversion from the internal type, as a watch bookmark's object has it.
import { describe, expect, it } from 'vitest';
import { goZeroObject } from './go-zero-objects.js';
import { allDefinitions } from './index.js';

const lookup = (name: string) => allDefinitions[name];

const AFTER_METADATA: Record<string, string> = {
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': '',
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy': '"spec":{},"status":{}',
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding': '"spec":{}',
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': '',
  'io.k8s.api.apps.v1.ControllerRevision': '"data":null,"revision":0',
  'io.k8s.api.apps.v1.DaemonSet':
    '"spec":{"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"updateStrategy":{}},"status":{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}',
  'io.k8s.api.apps.v1.Deployment':
    '"spec":{"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"strategy":{}},"status":{}',
  'io.k8s.api.apps.v1.ReplicaSet':
    '"spec":{"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}},"status":{"replicas":0}',
  'io.k8s.api.apps.v1.StatefulSet':
    '"spec":{"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"serviceName":"","updateStrategy":{}},"status":{"replicas":0,"availableReplicas":0}',
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler':
    '"spec":{"scaleTargetRef":{"kind":"","name":""},"maxReplicas":0},"status":{"currentReplicas":0,"desiredReplicas":0}',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler':
    '"spec":{"scaleTargetRef":{"kind":"","name":""},"maxReplicas":0},"status":{"desiredReplicas":0,"currentMetrics":null}',
  'io.k8s.api.batch.v1.CronJob':
    '"spec":{"schedule":"","jobTemplate":{"metadata":{"creationTimestamp":null},"spec":{"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}}}},"status":{}',
  'io.k8s.api.batch.v1.Job':
    '"spec":{"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}},"status":{}',
  'io.k8s.api.certificates.v1.CertificateSigningRequest': '"spec":{"request":null,"signerName":""},"status":{}',
  'io.k8s.api.coordination.v1.Lease': '"spec":{}',
  'io.k8s.api.core.v1.ConfigMap': '',
  'io.k8s.api.core.v1.Endpoints': '',
  'io.k8s.api.core.v1.Event':
    '"involvedObject":{},"source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""',
  'io.k8s.api.core.v1.LimitRange': '"spec":{"limits":null}',
  'io.k8s.api.core.v1.Namespace': '"spec":{},"status":{}',
  'io.k8s.api.core.v1.Node':
    '"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},"nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"","osImage":"","containerRuntimeVersion":"","kubeletVersion":"","kubeProxyVersion":"","operatingSystem":"","architecture":""}}',
  'io.k8s.api.core.v1.PersistentVolume': '"spec":{},"status":{}',
  'io.k8s.api.core.v1.PersistentVolumeClaim': '"spec":{"resources":{}},"status":{}',
  'io.k8s.api.core.v1.Pod': '"spec":{"containers":null},"status":{}',
  'io.k8s.api.core.v1.PodTemplate': '"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}',
  'io.k8s.api.core.v1.ReplicationController': '"spec":{"replicas":0},"status":{"replicas":0}',
  'io.k8s.api.core.v1.ResourceQuota': '"spec":{},"status":{}',
  'io.k8s.api.core.v1.Secret': '',
  'io.k8s.api.core.v1.Service': '"spec":{},"status":{"loadBalancer":{}}',
  'io.k8s.api.core.v1.ServiceAccount': '',
  'io.k8s.api.discovery.v1.EndpointSlice': '"addressType":"","endpoints":null,"ports":null',
  'io.k8s.api.events.v1.Event':
    '"eventTime":null,"regarding":{},"deprecatedSource":{},"deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null',
  'io.k8s.api.flowcontrol.v1.FlowSchema':
    '"spec":{"priorityLevelConfiguration":{"name":""},"matchingPrecedence":0},"status":{}',
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration': '"spec":{"type":""},"status":{}',
  'io.k8s.api.networking.v1.Ingress': '"spec":{},"status":{"loadBalancer":{}}',
  'io.k8s.api.networking.v1.IngressClass': '"spec":{}',
  'io.k8s.api.networking.v1.NetworkPolicy': '"spec":{"podSelector":{}}',
  'io.k8s.api.node.v1.RuntimeClass': '"handler":""',
  'io.k8s.api.policy.v1.PodDisruptionBudget':
    '"spec":{},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}',
  'io.k8s.api.policy.v1beta1.PodSecurityPolicy':
    '"spec":{"seLinux":{"rule":""},"runAsUser":{"rule":""},"supplementalGroups":{},"fsGroup":{}}',
  'io.k8s.api.rbac.v1.ClusterRole': '"rules":null',
  'io.k8s.api.rbac.v1.ClusterRoleBinding': '"roleRef":{"apiGroup":"","kind":"","name":""}',
  'io.k8s.api.rbac.v1.Role': '"rules":null',
  'io.k8s.api.rbac.v1.RoleBinding': '"roleRef":{"apiGroup":"","kind":"","name":""}',
  'io.k8s.api.scheduling.v1.PriorityClass': '"value":0',
  'io.k8s.api.storage.v1.CSIDriver': '"spec":{}',
  'io.k8s.api.storage.v1.CSINode': '"spec":{"drivers":null}',
  'io.k8s.api.storage.v1.CSIStorageCapacity': '"storageClassName":""',
  'io.k8s.api.storage.v1.StorageClass': '"provisioner":""',
  'io.k8s.api.storage.v1.VolumeAttachment':
    '"spec":{"attacher":"","source":{},"nodeName":""},"status":{"attached":false}',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition':
    '"spec":{"group":"","names":{"plural":"","kind":""},"scope":"","versions":null},"status":{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":null}',
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService':
    '"spec":{"groupPriorityMinimum":0,"versionPriority":0},"status":{}',
};

/** What follows `metadata` in the zero object's JSON text. */
const afterMetadata = (definition: string, converted: boolean): string => {
  const { metadata, ...rest } = goZeroObject(definition, lookup, converted) ?? {};
  expect(metadata, definition).toEqual({ creationTimestamp: null });
  return JSON.stringify(rest).slice(1, -1);
};

describe('goZeroObject', () => {
  it.each(Object.entries(AFTER_METADATA))('converted, %s is what encoding/json writes', (definition, text) => {
    expect(afterMetadata(definition, true)).toBe(text);
  });

  it('leaves the conversion\'s replicas out of the typed zero object', () => {
    expect(afterMetadata('io.k8s.api.apps.v1.Deployment', false)).toBe(
      '"spec":{"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"strategy":{}},"status":{}');
    expect(afterMetadata('io.k8s.api.core.v1.ReplicationController', false)).toBe('"spec":{},"status":{"replicas":0}');
  });

  it('knows no custom resource', () => {
    expect(goZeroObject('com.example.stable.v1.CronTab', lookup)).toBeUndefined();
  });
});
