import { describe, expect, it } from 'vitest';
import { allDefinitions } from '../../../api/index.js';
import { goZeroValues } from '../../../api/go-zero-values.js';
import { ref } from '../../../api/schema.js';
import { SchemaIndex } from './index.js';
import { pruneUnknown } from './prune.js';
import { missingRequired } from './required.js';
import { fillZeroValues } from './zero-values.js';

const index = new SchemaIndex(allDefinitions);

describe('fillZeroValues', () => {
  it('writes what Go writes for absent fields: {} for structs, null for times, zeros of scalars without omitempty', () => {
    const rs: Record<string, any> = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    };
    fillZeroValues(index, rs, ref('io.k8s.api.apps.v1.ReplicaSet'));
    expect(rs.spec.template.metadata).toEqual({ labels: { a: 'b' }, creationTimestamp: null });
    expect(rs.spec.template.spec.containers[0].resources).toEqual({});
    // a status is the controllers' report: its required counts get their zeros too
    expect(rs.status).toEqual({ replicas: 0 });
  });

  it('leaves a required field outside the status whose zero would pass for a value absent, and omitempty pointers, lists and maps', () => {
    const pod: Record<string, any> = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', ports: [{ name: 'http' }] }] } };
    fillZeroValues(index, pod, ref('io.k8s.api.core.v1.Pod'));
    expect(pod.spec.containers[0]).toEqual({ name: 'c', ports: [{ name: 'http' }], resources: {} });
    expect(missingRequired(index, pod, ref('io.k8s.api.core.v1.Pod'))).toEqual(['spec.containers[0].ports[0].containerPort']);
    expect(pod.spec.securityContext).toBeUndefined();
    expect(pod.spec.volumes).toBeUndefined();
    expect(pod.status).toEqual({});
  });

  it('writes a required struct as {} with its defaults, as Go\'s decoder makes it: validation looks inside it', () => {
    const np: Record<string, any> = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' }, spec: {} };
    fillZeroValues(index, np, ref('io.k8s.api.networking.v1.NetworkPolicy'));
    expect(np.spec.podSelector).toEqual({});
    expect(missingRequired(index, np, ref('io.k8s.api.networking.v1.NetworkPolicy'))).toEqual([]);
    const rb: Record<string, any> = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb' } };
    fillZeroValues(index, rb, ref('io.k8s.api.rbac.v1.RoleBinding'));
    expect(missingRequired(index, rb, ref('io.k8s.api.rbac.v1.RoleBinding'))).toEqual(['roleRef.apiGroup', 'roleRef.kind', 'roleRef.name']);
    const d: Record<string, any> = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } } } };
    fillZeroValues(index, d, ref('io.k8s.api.apps.v1.Deployment'));
    expect(d.spec.template.spec).toMatchObject({ containers: null, restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
  });

  it('writes null for what Go writes as null while nil: pointers, lists and maps without omitempty', () => {
    const hpa: Record<string, any> = {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2 }, status: {},
    };
    fillZeroValues(index, hpa, ref('io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler'));
    expect(hpa.status).toEqual({ desiredReplicas: 0, currentMetrics: null });
    const role: Record<string, any> = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' } };
    fillZeroValues(index, role, ref('io.k8s.api.rbac.v1.Role'));
    expect(role.rules).toBeNull();
    // below a list item, and a required one, which validation still finds missing
    const slice: Record<string, any> = {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [{ conditions: {} }],
    };
    fillZeroValues(index, slice, ref('io.k8s.api.discovery.v1.EndpointSlice'));
    expect(slice).toMatchObject({ endpoints: [{ addresses: null, conditions: {} }], ports: null });
    const d: Record<string, any> = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: {} } };
    fillZeroValues(index, d, ref('io.k8s.api.apps.v1.Deployment'));
    expect(d.spec.selector).toBeNull();
    expect(d.spec.template.spec.containers).toBeNull();
    expect(missingRequired(index, d, ref('io.k8s.api.apps.v1.Deployment'))).toEqual(['spec.selector']);
  });

  it('writes null for an empty list Go writes as null while nil, required or not: protobuf storage reads one back nil', () => {
    const slice: Record<string, any> = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [], ports: [] };
    const node: Record<string, any> = { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'n' }, spec: { drivers: [] } };
    for (const [obj, definition] of [[slice, 'io.k8s.api.discovery.v1.EndpointSlice'], [node, 'io.k8s.api.storage.v1.CSINode']] as const) {
      pruneUnknown(index, obj, ref(definition), '', 'json', true);
      fillZeroValues(index, obj, ref(definition));
    }
    expect(slice).toMatchObject({ endpoints: null, ports: null });
    expect(node.spec).toEqual({ drivers: null });
  });

  it('leaves a nil field that is defaulted to its default: a gRPC probe\'s service is ""', () => {
    const pod: Record<string, any> = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x', livenessProbe: { grpc: { port: 9000, service: '' } } }] },
    };
    fillZeroValues(index, pod, ref('io.k8s.api.core.v1.Pod'));
    expect(pod.spec.containers[0].livenessProbe.grpc).toEqual({ port: 9000, service: '' });
  });

  it('writes an IntOrString as 0 and a Quantity as "0", as their MarshalJSON writes a zero (omitempty or not)', () => {
    const pod: Record<string, any> = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: {
        containers: [{
          name: 'c', image: 'x', readinessProbe: { httpGet: { path: '/' } }, livenessProbe: { tcpSocket: {} },
          env: [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
        }],
      },
    };
    fillZeroValues(index, pod, ref('io.k8s.api.core.v1.Pod'));
    const c = pod.spec.containers[0];
    expect(c.readinessProbe.httpGet).toEqual({ path: '/', port: 0 });
    expect(c.livenessProbe.tcpSocket).toEqual({ port: 0 });
    expect(c.env[0].valueFrom.resourceFieldRef).toEqual({ resource: 'limits.cpu', divisor: '0' });
    // a zero port is no value: validation reports it (an invalid port 0), not the required-field check
    expect(missingRequired(index, pod, ref('io.k8s.api.core.v1.Pod'))).toEqual([]);
    const svc: Record<string, any> = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 81 }] } };
    fillZeroValues(index, svc, ref('io.k8s.api.core.v1.Service'));
    expect(svc.spec.ports).toEqual([{ port: 80, targetPort: 8080 }, { port: 81, targetPort: 0 }]);
  });

  it('takes a null for the zero value it is: a stored part that has its nulls is kept as it is', () => {
    const endpoints = Object.freeze([Object.freeze({ addresses: null, conditions: Object.freeze({}) })]);
    const slice: Record<string, any> = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints, ports: null };
    fillZeroValues(index, slice, ref('io.k8s.api.discovery.v1.EndpointSlice'));
    expect(slice.endpoints).toBe(endpoints);
    expect(slice.ports).toBeNull();
  });

  it('writes a CRD version\'s served and storage as false when absent: the CRD\'s own validation is all of upstream\'s', () => {
    const crd: Record<string, any> = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.ex.com' },
      spec: { group: 'ex.com', names: { plural: 'foos', kind: 'Foo' }, scope: 'Namespaced', versions: [{ name: 'v1', storage: true }, { name: 'v2' }] },
    };
    fillZeroValues(index, crd, ref('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'));
    expect(crd.spec.versions).toEqual([{ name: 'v1', served: false, storage: true }, { name: 'v2', served: false, storage: false }]);
    expect(crd.status).toEqual({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null });
  });

  it('writes a required time as null, which validation still finds missing', () => {
    const event: Record<string, any> = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' } };
    fillZeroValues(index, event, ref('io.k8s.api.events.v1.Event'));
    expect(event.eventTime).toBeNull();
    expect(missingRequired(index, event, ref('io.k8s.api.events.v1.Event'))).toEqual(['eventTime']);
  });

  it('fills container statuses and conditions as the kubelet\'s are served', () => {
    const pod: Record<string, any> = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', state: { running: {} } }] },
    };
    fillZeroValues(index, pod, ref('io.k8s.api.core.v1.Pod'));
    expect(pod.status.conditions[0]).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: null });
    expect(pod.status.containerStatuses[0]).toEqual({
      name: 'c', state: { running: { startedAt: null } }, lastState: {}, ready: false, restartCount: 0, image: '', imageID: '',
    });
  });

  it('never writes into what lies below the root: a part lacking a zero value is copied', () => {
    const template = Object.freeze({ metadata: Object.freeze({ labels: Object.freeze({ a: 'b' }) }) });
    const obj: Record<string, any> = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't' }, template };
    fillZeroValues(index, obj, ref('io.k8s.api.core.v1.PodTemplate'));
    expect(obj.template).not.toBe(template);
    expect(obj.template.metadata).toEqual({ labels: { a: 'b' }, creationTimestamp: null });
    // an object that has its zero values already is kept as it is
    const filled = obj.template;
    fillZeroValues(index, obj, ref('io.k8s.api.core.v1.PodTemplate'));
    expect(obj.template).toBe(filled);
  });

  it('names only definitions we serve, and fields they have', () => {
    for (const [definition, fields] of Object.entries(goZeroValues)) {
      const schema = allDefinitions[definition];
      expect(schema, definition).toBeDefined();
      for (const field of Object.keys(fields)) expect(schema!.properties, `${definition}.${field}`).toHaveProperty([field]);
    }
  });
});
