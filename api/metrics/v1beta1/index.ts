// metrics.k8s.io/v1beta1, the resource metrics API (upstream: k8s.io/metrics/pkg/apis/metrics/v1beta1), served by
// metrics-server behind an APIService, not by the apiserver: these are the definitions of its OpenAPI document.
import { arr, kind, listKind, mapOf, obj, ref, str, type Definitions } from '../../schema.js';

const P = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const gvk = (k: string) => ({ group: 'metrics.k8s.io', version: 'v1beta1', kind: k });
const usage = (what: string) => mapOf(ref(QUANTITY), `The memory and CPU usage of the ${what}.`);
const timing = {
  timestamp: ref(`${M}Time`, 'The following fields define time interval from which metrics were collected from the interval [Timestamp-Window, Timestamp].'),
  window: ref(`${M}Duration`),
};

export const definitions: Definitions = {
  [`${P}ContainerMetrics`]: obj({ name: str('Container name corresponding to the one from pod.spec.containers.'), usage: usage('container') },
    'ContainerMetrics sets resource usage metrics of a container.', { required: ['name', 'usage'] }),
  [`${P}NodeMetrics`]: kind(gvk('NodeMetrics'), { ...timing, usage: usage('node') },
    'NodeMetrics sets resource usage metrics of a node.', { required: ['timestamp', 'window', 'usage'] }),
  [`${P}NodeMetricsList`]: listKind(gvk('NodeMetricsList'), `${P}NodeMetrics`),
  [`${P}PodMetrics`]: kind(gvk('PodMetrics'), { ...timing, containers: arr(ref(`${P}ContainerMetrics`), 'Metrics for all containers are collected within the same time window.', { 'x-kubernetes-list-type': 'atomic' }) },
    'PodMetrics sets resource usage metrics of a pod.', { required: ['timestamp', 'window', 'containers'] }),
  [`${P}PodMetricsList`]: listKind(gvk('PodMetricsList'), `${P}PodMetrics`),
};
