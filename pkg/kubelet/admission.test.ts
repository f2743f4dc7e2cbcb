import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { admitPod, footprintOf } from './admission.js';

const node = (o: { labels?: Record<string, string>; taints?: unknown[]; allocatable?: Record<string, string> } = {}): KubeObject => ({
  metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', ...o.labels } },
  spec: { taints: o.taints },
  status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110', 'ephemeral-storage': '10Gi', ...o.allocatable } },
});

const pod = (spec: Record<string, unknown> = {}, containers: Record<string, unknown>[] = [{ name: 'c', image: 'busybox' }], annotations?: Record<string, string>): KubeObject => ({
  metadata: { name: 'p', namespace: 'default', uid: 'u', ...(annotations ? { annotations } : {}) },
  spec: { nodeName: 'n1', containers, ...spec },
});

const admit = (p: KubeObject, others: KubeObject[] = [], n = node()) => admitPod(p, footprintOf(p), others.map(footprintOf), n);

const requesting = (requests: Record<string, string>, spec: Record<string, unknown> = {}): KubeObject =>
  pod(spec, [{ name: 'c', image: 'busybox', resources: { requests } }]);

describe('kubelet admission (upstream generalFilter)', () => {
  it('checks resources before the node selector: OutOfcpu, not NodeAffinity', () => {
    expect(admit(requesting({ cpu: '3' }, { nodeSelector: { disk: 'ssd' } }))).toEqual({
      reason: 'OutOfcpu', message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000",
    });
  });

  it('rejects a pod whose required node affinity the node does not match', () => {
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }] } } };
    expect(admit(pod({ affinity }))).toEqual({
      reason: 'NodeAffinity', message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
    });
    expect(admit(pod({ affinity }), [], node({ labels: { disk: 'ssd' } }))).toBeUndefined();
  });

  it('counts ephemeral storage and the extended resources the node has; ignores those it has not', () => {
    expect(admit(requesting({ 'ephemeral-storage': '20Gi' }))?.reason).toBe('OutOfephemeral-storage');
    expect(admit(requesting({ 'example.com/gpu': '1' }))).toBeUndefined();
    expect(admit(requesting({ 'example.com/gpu': '2' }), [], node({ allocatable: { 'example.com/gpu': '1' } }))).toEqual({
      reason: 'OutOfexample.com/gpu', message: "Pod was rejected: Node didn't have enough resource: example.com/gpu, requested: 2, used: 0, capacity: 1",
    });
    expect(admit(requesting({ memory: '1Gi' }), [requesting({ memory: '3.5Gi' })])?.reason).toBe('OutOfmemory');
  });

  it('reports too many pods first', () => {
    expect(admit(requesting({ cpu: '3' }), [pod()], node({ allocatable: { pods: '1' } }))?.reason).toBe('OutOfpods');
  });

  it('host ports conflict only on the same IP, or with one on every address', () => {
    const withPort = (hostIP?: string): KubeObject => pod({}, [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80, hostPort: 8080, ...(hostIP ? { hostIP } : {}) }] }]);
    expect(admit(withPort('127.0.0.2'), [withPort('127.0.0.3')])).toBeUndefined();
    expect(admit(withPort('127.0.0.2'), [withPort('127.0.0.2')])?.reason).toBe('NodePorts');
    expect(admit(withPort('127.0.0.2'), [withPort()])?.reason).toBe('NodePorts');
    expect(admit(withPort('0.0.0.0'), [withPort('127.0.0.3')])?.reason).toBe('NodePorts');
  });

  it('rejects a pod that does not tolerate a NoExecute taint of the node; static pods are exempt', () => {
    const tainted = node({ taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }, { key: 'other', effect: 'NoSchedule' }] });
    expect(admit(pod(), [], tainted)).toEqual({
      reason: 'TaintToleration', message: "Pod was rejected: Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate",
    });
    expect(admit(pod({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute' }] }), [], tainted)).toBeUndefined();
    expect(admit(pod({}, undefined, { 'kubernetes.io/config.source': 'file' }), [], tainted)).toBeUndefined();
  });
});
