// What upstream's JSON holds after `metadata` for the zero value of each built-in kind it watches: the object its
// cacher makes for a BOOKMARK event (newFunc(), the internal type, given only a resourceVersion), converted to the
// version watched and written by encoding/json. A field whose Go type is a struct is written (`{}` at zero, metav1.Time
// `null`), a scalar without omitempty at its zero, a pointer, list or map without omitempty as `null`; the rest is
// left out. Where the internal type holds a plain int32 that the served version makes a pointer, the conversion writes
// it at 0 (`replicas` of Deployments, ReplicaSets, StatefulSets and ReplicationControllers).
//
// Facts only, from the types.go files of k8s.io/api (policy/v1beta1 from v0.24, where PodSecurityPolicy was last),
// k8s.io/apiextensions-apiserver, k8s.io/kube-aggregator and k8s.io/apimachinery v0.32 (a throwaway script read the Go
// field types, json tags and field order). Used by pkg/apiserver/handlers/watch-bookmark.ts.

export const goZeroObjects: Record<string, string> = {
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': '',
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy': '"spec":{},"status":{}',
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding': '"spec":{}',
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': '',
  'io.k8s.api.apps.v1.ControllerRevision': '"data":null,"revision":0',
  'io.k8s.api.apps.v1.DaemonSet': '"spec":{"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"updateStrategy":{}},"status":{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}',
  'io.k8s.api.apps.v1.Deployment': '"spec":{"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"strategy":{}},"status":{}',
  'io.k8s.api.apps.v1.ReplicaSet': '"spec":{"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}},"status":{"replicas":0}',
  'io.k8s.api.apps.v1.StatefulSet': '"spec":{"replicas":0,"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"serviceName":"","updateStrategy":{}},"status":{"replicas":0,"availableReplicas":0}',
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler': '"spec":{"scaleTargetRef":{"kind":"","name":""},"maxReplicas":0},"status":{"currentReplicas":0,"desiredReplicas":0}',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler': '"spec":{"scaleTargetRef":{"kind":"","name":""},"maxReplicas":0},"status":{"desiredReplicas":0,"currentMetrics":null}',
  'io.k8s.api.batch.v1.CronJob': '"spec":{"schedule":"","jobTemplate":{"metadata":{"creationTimestamp":null},"spec":{"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}}}},"status":{}',
  'io.k8s.api.batch.v1.Job': '"spec":{"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}},"status":{}',
  'io.k8s.api.certificates.v1.CertificateSigningRequest': '"spec":{"request":null,"signerName":""},"status":{}',
  'io.k8s.api.coordination.v1.Lease': '"spec":{}',
  'io.k8s.api.core.v1.ConfigMap': '',
  'io.k8s.api.core.v1.Endpoints': '',
  'io.k8s.api.core.v1.Event': '"involvedObject":{},"source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""',
  'io.k8s.api.core.v1.LimitRange': '"spec":{"limits":null}',
  'io.k8s.api.core.v1.Namespace': '"spec":{},"status":{}',
  'io.k8s.api.core.v1.Node': '"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},"nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"","osImage":"","containerRuntimeVersion":"","kubeletVersion":"","kubeProxyVersion":"","operatingSystem":"","architecture":""}}',
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
  'io.k8s.api.events.v1.Event': '"eventTime":null,"regarding":{},"deprecatedSource":{},"deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null',
  'io.k8s.api.flowcontrol.v1.FlowSchema': '"spec":{"priorityLevelConfiguration":{"name":""},"matchingPrecedence":0},"status":{}',
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration': '"spec":{"type":""},"status":{}',
  'io.k8s.api.networking.v1.Ingress': '"spec":{},"status":{"loadBalancer":{}}',
  'io.k8s.api.networking.v1.IngressClass': '"spec":{}',
  'io.k8s.api.networking.v1.NetworkPolicy': '"spec":{"podSelector":{}}',
  'io.k8s.api.node.v1.RuntimeClass': '"handler":""',
  'io.k8s.api.policy.v1.PodDisruptionBudget': '"spec":{},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}',
  'io.k8s.api.policy.v1beta1.PodSecurityPolicy': '"spec":{"seLinux":{"rule":""},"runAsUser":{"rule":""},"supplementalGroups":{},"fsGroup":{}}',
  'io.k8s.api.rbac.v1.ClusterRole': '"rules":null',
  'io.k8s.api.rbac.v1.ClusterRoleBinding': '"roleRef":{"apiGroup":"","kind":"","name":""}',
  'io.k8s.api.rbac.v1.Role': '"rules":null',
  'io.k8s.api.rbac.v1.RoleBinding': '"roleRef":{"apiGroup":"","kind":"","name":""}',
  'io.k8s.api.scheduling.v1.PriorityClass': '"value":0',
  'io.k8s.api.storage.v1.CSIDriver': '"spec":{}',
  'io.k8s.api.storage.v1.CSINode': '"spec":{"drivers":null}',
  'io.k8s.api.storage.v1.CSIStorageCapacity': '"storageClassName":""',
  'io.k8s.api.storage.v1.StorageClass': '"provisioner":""',
  'io.k8s.api.storage.v1.VolumeAttachment': '"spec":{"attacher":"","source":{},"nodeName":""},"status":{"attached":false}',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition': '"spec":{"group":"","names":{"plural":"","kind":""},"scope":"","versions":null},"status":{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":null}',
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService': '"spec":{"groupPriorityMinimum":0,"versionPriority":0},"status":{}',
};

/** Annotations the conversion from the internal type writes on every object of the kind, a zero one included. */
export const conversionAnnotations: Record<string, Record<string, string>> = {
  // Convert_apps_DaemonSet_To_v1_DaemonSet: the internal spec.templateGeneration (0 at zero)
  'io.k8s.api.apps.v1.DaemonSet': { 'deprecated.daemonset.template.generation': '0' },
};
