import { describe, expect, it } from 'vitest';
import { defaulters } from './defaulters.js';
import { defaultPullPolicy, imageTag } from './image-pull-policy.js';
import { core } from './names.js';

type Obj = Record<string, any>;
const apply = (definition: string, value: Obj): Obj => {
  defaulters[core(definition)](value);
  return value;
};

describe('image pull policy', () => {
  it.each([
    ['nginx', 'latest', 'Always'],
    ['nginx:latest', 'latest', 'Always'],
    ['nginx:1.25', '1.25', 'IfNotPresent'],
    ['registry.k8s.io/pause:3.9', '3.9', 'IfNotPresent'],
    ['localhost:5000/team/app', 'latest', 'Always'],
    ['localhost:5000/team/app:v2', 'v2', 'IfNotPresent'],
    [`nginx@sha256:${'a'.repeat(64)}`, '', 'IfNotPresent'],
    [`nginx:latest@sha256:${'a'.repeat(64)}`, 'latest', 'Always'],
    ['Nginx', '', 'IfNotPresent'],
    ['', '', 'IfNotPresent'],
  ])('%s has tag %j and pulls %s', (image, tag, policy) => {
    expect(imageTag(image)).toBe(tag);
    expect(defaultPullPolicy(image)).toBe(policy);
  });

  it('keeps a policy the user chose', () => {
    expect(apply('Container', { image: 'nginx', imagePullPolicy: 'Never' }).imagePullPolicy).toBe('Never');
    expect(apply('EphemeralContainer', { image: 'busybox:1.36' }).imagePullPolicy).toBe('IfNotPresent');
  });
});

describe('pod', () => {
  it('defaults requests to limits, enables service links and keeps explicit values', () => {
    const pod = apply('Pod', { spec: {
      containers: [{ name: 'a', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } } }],
      initContainers: [{ name: 'i', resources: { limits: { cpu: '2' } } }],
      enableServiceLinks: false,
    } });
    expect(pod.spec.containers[0].resources.requests).toEqual({ cpu: '500m', memory: '1Gi' });
    expect(pod.spec.initContainers[0].resources.requests).toEqual({ cpu: '2' });
    expect(pod.spec.enableServiceLinks).toBe(false);
    expect(apply('Pod', { spec: { containers: [{ name: 'a' }] } }).spec).toEqual({ containers: [{ name: 'a' }], enableServiceLinks: true });
  });

  it('makes container ports host ports on the host network', () => {
    const pod = apply('Pod', { spec: { hostNetwork: true, containers: [{ name: 'a', ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 9 }] }] } });
    expect(pod.spec.containers[0].ports).toEqual([{ containerPort: 80, hostPort: 80 }, { containerPort: 81, hostPort: 9 }]);
  });

  it('turns a volume without a source into an emptyDir', () => {
    expect(apply('Volume', { name: 'scratch' })).toEqual({ name: 'scratch', emptyDir: {} });
    expect(apply('Volume', { name: 'cfg', configMap: { name: 'c' } })).toEqual({ name: 'cfg', configMap: { name: 'c' } });
  });
});

describe('service', () => {
  it('leaves a plain ClusterIP service with internal traffic policy Cluster only', () => {
    expect(apply('ServiceSpec', { type: 'ClusterIP', sessionAffinity: 'None', sessionAffinityConfig: { clientIP: {} } }))
      .toEqual({ type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' });
  });

  it('fills what a LoadBalancer needs', () => {
    expect(apply('ServiceSpec', { type: 'LoadBalancer', sessionAffinity: 'ClientIP' })).toEqual({
      type: 'LoadBalancer', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true,
    });
    const svc = apply('Service', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb' }] } } });
    expect(svc.status.loadBalancer.ingress).toEqual([{ ip: '1.2.3.4', ipMode: 'VIP' }, { hostname: 'lb' }]);
  });

  it('treats a ClusterIP service with external IPs as externally accessible, ExternalName as neither', () => {
    expect(apply('ServiceSpec', { type: 'ClusterIP', externalIPs: ['10.0.0.1'] }).externalTrafficPolicy).toBe('Cluster');
    expect(apply('ServiceSpec', { type: 'ExternalName', externalName: 'x.example' })).toEqual({ type: 'ExternalName', externalName: 'x.example' });
  });

  it('targets the service port unless told otherwise', () => {
    expect(apply('ServicePort', { port: 80 }).targetPort).toBe(80);
    expect(apply('ServicePort', { port: 80, targetPort: 0 }).targetPort).toBe(80);
    expect(apply('ServicePort', { port: 80, targetPort: 'http' }).targetPort).toBe('http');
  });
});

describe('other kinds', () => {
  it('labels a namespace with its name and makes it Active', () => {
    expect(apply('Namespace', { metadata: { name: 'dev', labels: { team: 'a' } } })).toEqual({
      metadata: { name: 'dev', labels: { team: 'a', 'kubernetes.io/metadata.name': 'dev' } }, status: { phase: 'Active' },
    });
    expect(apply('Namespace', { metadata: { generateName: 'x-' } }).metadata.labels).toBeUndefined();
  });

  it('starts volumes and claims Pending', () => {
    expect(apply('PersistentVolume', { spec: {} }).status).toEqual({ phase: 'Pending' });
    expect(apply('PersistentVolumeClaim', { spec: {}, status: { phase: 'Bound' } }).status).toEqual({ phase: 'Bound' });
  });

  it('makes allocatable the capacity when a node reports none', () => {
    expect(apply('NodeStatus', { capacity: { cpu: '4' } }).allocatable).toEqual({ cpu: '4' });
    expect(apply('NodeStatus', { capacity: { cpu: '4' }, allocatable: { cpu: '3' } }).allocatable).toEqual({ cpu: '3' });
  });

  it('fills container limit range defaults from max, default and min', () => {
    expect(apply('LimitRangeItem', { type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } })).toMatchObject({
      default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '1Mi' },
    });
    expect(apply('LimitRangeItem', { type: 'Pod', max: { cpu: '2' } })).toEqual({ type: 'Pod', max: { cpu: '2' } });
    expect(apply('LimitRangeItem', { type: 'Container' })).toEqual({ type: 'Container' });
  });

  it('takes a replication controller selector and labels from its template', () => {
    const rc = apply('ReplicationController', { metadata: { name: 'r' }, spec: { template: { metadata: { labels: { app: 'x' } } } } });
    expect(rc.spec.selector).toEqual({ app: 'x' });
    expect(rc.metadata.labels).toEqual({ app: 'x' });
    const kept = apply('ReplicationController', { metadata: { labels: { a: 'b' } }, spec: { selector: { s: 't' }, template: { metadata: { labels: { app: 'x' } } } } });
    expect([kept.spec.selector, kept.metadata.labels]).toEqual([{ s: 't' }, { a: 'b' }]);
  });
});

describe('PodSpec', () => {
  it('keeps serviceAccount, the deprecated alias, equal to serviceAccountName', () => {
    expect(apply('PodSpec', { serviceAccount: 'old' })).toEqual({ serviceAccount: 'old', serviceAccountName: 'old' });
    expect(apply('PodSpec', { serviceAccount: 'old', serviceAccountName: 'new' })).toEqual({ serviceAccount: 'new', serviceAccountName: 'new' });
    expect(apply('PodSpec', { serviceAccount: '' })).toEqual({});
  });
});
