// `--controllers` as upstream's (names, old aliases, "*", "-foo") and the command's flag errors.
import { describe, expect, it } from 'vitest';
import { eventSourceOf, knownControllers, selectControllers } from '../../pkg/controller/controller-manager.js';

const names = (list: string[]): string[] => selectControllers(list, knownControllers()).map((d) => d.name);

describe('--controllers', () => {
  it('"*" enables every controller; "-foo" (by name or alias) disables one; a bare name enables only it', () => {
    const all = names(['*']);
    expect(all).toEqual(expect.arrayContaining(['garbage-collector-controller', 'namespace-controller', 'node-lifecycle-controller', 'endpoints-controller', 'replicaset-controller']));
    expect(names(['*', '-garbagecollector'])).not.toContain('garbage-collector-controller');
    expect(names(['*', '-namespace-controller'])).toHaveLength(all.length - 1);
    expect(names(['podgc', 'endpoint'])).toEqual(['endpoints-controller', 'pod-garbage-collector-controller']);
    expect(names([])).toEqual([]);
  });

  it('refuses an unknown name as upstream', () => {
    expect(() => names(['*', 'frobnicator'])).toThrow('"frobnicator" is not in the list of known controllers');
  });

  it('maps every controller to the service account its bootstrap role is bound to', () => {
    const sa = Object.fromEntries(knownControllers().map((d) => [d.name, d.serviceAccount]));
    expect(sa).toMatchObject({
      'garbage-collector-controller': 'generic-garbage-collector', 'node-lifecycle-controller': 'node-controller',
      'pod-garbage-collector-controller': 'pod-garbage-collector', 'replicationcontroller-controller': 'replication-controller',
    });
  });

  it("names each controller's events as upstream's recorder does, whatever its service account", () => {
    const source = Object.fromEntries(knownControllers().map((d) => [d.name, eventSourceOf(d, 'vm_6f1c')]));
    expect(source).toMatchObject({
      'daemonset-controller': 'daemonset-controller', 'persistentvolume-binder-controller': 'persistentvolume-controller',
      'disruption-controller': 'controllermanager', 'persistentvolume-expander-controller': 'volume_expand',
      'node-ipam-controller': 'cidrAllocator', 'taint-eviction-controller': 'taint-eviction-controller',
      'node-lifecycle-controller': 'node-controller', 'replicationcontroller-controller': 'replication-controller',
      'deployment-controller': 'deployment-controller', 'horizontal-pod-autoscaler-controller': 'horizontal-pod-autoscaler',
      'endpointslice-controller': 'endpoint-slice-controller', 'service-lb-controller': 'service-controller',
      'hostpath-provisioner-controller': 'mini-kube.io/hostpath_vm_6f1c',
    });
  });
});
