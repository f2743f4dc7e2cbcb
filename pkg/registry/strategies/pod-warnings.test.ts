// Upstream's pkg/api/pod/warnings_test.go (1.32) cases, in the order the checks run.
import { describe, expect, it } from 'vitest';
import type { KubeObject, ObjectMeta } from '../../../api/types.js';
import { podTemplateWarnings, podWarnings, pvcSpecWarnings } from './pod-warnings.js';

const spec = (s: KubeObject, metadata: ObjectMeta = {}): KubeObject => ({ metadata, spec: s });
/** The warnings of the spec as a pod's and, prefixed, as a template's (which alone warns of AppArmor annotations). */
const both = (s: KubeObject, metadata: ObjectMeta = {}): string[] => {
  const pod = podWarnings(spec(s, metadata));
  // every field path (the one warned of, and the port one it collides with) sits under the template's
  expect(podTemplateWarnings(spec(s, metadata), 'spec.template')).toEqual(pod.map((w) => w.replace(/(^|with )(?=spec\.|metadata\.)/g, '$1spec.template.')));
  return pod;
};
const resources = { cpu: '100m', memory: '4m', 'ephemeral-storage': '4m' };
const ports = (...p: KubeObject[][]): KubeObject => ({ containers: p.map((list, i) => ({ name: `c${i}`, ports: list })) });

describe('pod spec warnings', () => {
  it('warns of deprecated and removed volume plugins, and of fractional ephemeral claims', () => {
    const volumes = [
      { name: 'p', photonPersistentDisk: { pdID: 'x' } }, { name: 'g', gitRepo: { repository: 'r' } }, { name: 's', scaleIO: {} },
      { name: 'f', flocker: {} }, { name: 'o', storageos: {} }, { name: 'q', quobyte: {} }, { name: 'gl', glusterfs: {} },
      { name: 'c', cephfs: {} }, { name: 'r', rbd: {} },
      { name: 'e', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200m' } } } } } },
      { name: 'ok', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200Mi' } } } } } },
    ];
    expect(both({ volumes })).toEqual([
      'spec.volumes[0].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+',
      'spec.volumes[1].gitRepo: deprecated in v1.11',
      'spec.volumes[2].scaleIO: deprecated in v1.16, non-functional in v1.22+',
      'spec.volumes[3].flocker: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[4].storageOS: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[5].quobyte: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[6].glusterfs: deprecated in v1.25, non-functional in v1.26+',
      'spec.volumes[7].cephfs: deprecated in v1.28, non-functional in v1.31+',
      'spec.volumes[8].rbd: deprecated in v1.28, non-functional in v1.31+',
      'spec.volumes[9].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "200m" is invalid, must be an integer',
    ]);
  });

  it('warns of duplicate host aliases and image pull secrets, and of empty secret names', () => {
    expect(both({ hostAliases: [{ ip: '1.1.1.1' }, { ip: '1.1.1.1' }, { ip: '1.1.1.1' }] })).toEqual([
      'spec.hostAliases[1].ip: duplicate ip "1.1.1.1"',
      'spec.hostAliases[2].ip: duplicate ip "1.1.1.1"',
    ]);
    expect(both({ imagePullSecrets: [{ name: 'a' }, { name: 'a' }, { name: 'a' }] })).toEqual([
      'spec.imagePullSecrets[1].name: duplicate name "a"',
      'spec.imagePullSecrets[2].name: duplicate name "a"',
    ]);
    expect(both({ imagePullSecrets: [{ name: '' }] })).toEqual(['spec.imagePullSecrets[0].name: invalid empty name ""']);
  });

  it('warns of env vars hiding an earlier one, unless they refer to it', () => {
    const env = (n: string): KubeObject[] => [
      { name: n, value: n }, { name: n, value: n }, { name: n, value: 'other' }, { name: n, value: '' }, { name: n, value: `$(${n})` },
      { name: n, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: n, value: `$(${n}) $(${n})` },
    ];
    const hides = (container: string, n: string): string[] => [1, 2, 3, 4, 5]
      .map((i) => `spec.${container}.env[${i}]: hides previous definition of "${n}", which may be dropped when using apply`);
    expect(both({ initContainers: [{ name: 'i', env: env('a') }], containers: [{ name: 'c', env: env('b') }] }))
      .toEqual([...hides('initContainers[0]', 'a'), ...hides('containers[0]', 'b')]);
  });

  it('warns of fractional memory and ephemeral storage', () => {
    const c = (name: string): KubeObject => ({ name, resources: { requests: resources, limits: resources } });
    const fractional = (path: string): string[] => ['limits[memory]', 'requests[memory]', 'limits[ephemeral-storage]', 'requests[ephemeral-storage]']
      .map((r) => `${path}.resources.${r}: fractional byte value "4m" is invalid, must be an integer`);
    expect(both({ initContainers: [c('i')], containers: [c('c')], overhead: resources })).toEqual([
      'spec.overhead[memory]: fractional byte value "4m" is invalid, must be an integer',
      'spec.overhead[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      ...fractional('spec.initContainers[0]'),
      ...fractional('spec.containers[0]'),
    ]);
    // Quantity.String() is canonical; MilliValue() rounds up
    expect(both({ containers: [{ name: 'c', resources: { limits: { memory: '0.1' }, requests: { memory: '1n' } } }] })).toEqual([
      'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer',
      'spec.containers[0].resources.requests[memory]: fractional byte value "1n" is invalid, must be an integer',
    ]);
    expect(both({ containers: [{ name: 'c', resources: { limits: { memory: '4M', 'ephemeral-storage': '1.5k' } } }] })).toEqual([]);
  });

  it('warns of deprecated node labels in selectors, affinity and spread constraints', () => {
    const labels = ['beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'failure-domain.beta.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone', 'beta.kubernetes.io/instance-type'];
    const msgs = [
      'deprecated since v1.14; use "kubernetes.io/arch" instead', 'deprecated since v1.14; use "kubernetes.io/os" instead',
      'deprecated since v1.17; use "topology.kubernetes.io/region" instead', 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    ];
    expect(both({ nodeSelector: Object.fromEntries(labels.map((l) => [l, 'true'])) })).toEqual(labels.map((l, i) => `spec.nodeSelector[${l}]: ${msgs[i]}`));
    const term = { matchExpressions: ['foo', ...labels].map((key) => ({ key, operator: 'Exists' })) };
    const expressions = (path: string): string[] => labels.map((l, i) => `${path}.matchExpressions[${i + 1}].key: ${l} is ${msgs[i]}`);
    expect(both({ affinity: { nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: term }],
    } } })).toEqual([
      ...expressions('spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]'),
      ...expressions('spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference'),
    ]);
    const spread = ['foo', ...labels].map((topologyKey) => ({ topologyKey, maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} }));
    expect(both({ topologySpreadConstraints: spread })).toEqual(labels.map((l, i) => `spec.topologySpreadConstraints[${i + 1}].topologyKey: ${l} is ${msgs[i]}`));
    expect(both({ nodeSelector: { 'node-role.kubernetes.io/master': '' } }))
      .toEqual(['spec.nodeSelector[node-role.kubernetes.io/master]: use "node-role.kubernetes.io/control-plane" instead']);
  });

  it('warns of deprecated annotations and seccomp annotations without their fields', () => {
    const annotations = {
      foo: 'bar', 'scheduler.alpha.kubernetes.io/critical-pod': 'true', 'seccomp.security.alpha.kubernetes.io/pod': 'default',
      'container.seccomp.security.alpha.kubernetes.io/foo': 'default', 'security.alpha.kubernetes.io/sysctls': 'a,b,c',
      'security.alpha.kubernetes.io/unsafe-sysctls': 'd,e,f',
    };
    expect(both({ containers: [{ name: 'foo' }] }, { annotations })).toEqual([
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/unsafe-sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ]);
    const profile = { seccompProfile: { type: 'RuntimeDefault' } };
    expect(both({ securityContext: profile, containers: [{ name: 'foo', securityContext: profile }] }, { annotations: {
      'seccomp.security.alpha.kubernetes.io/pod': 'default', 'container.seccomp.security.alpha.kubernetes.io/foo': 'default',
    } })).toEqual([]);
  });

  it('warns a template, not a pod, of AppArmor annotations without a field', () => {
    const annotations = { 'container.apparmor.security.beta.kubernetes.io/foo': 'unconfined' };
    const unconfined = { appArmorProfile: { type: 'Unconfined' } };
    expect(podTemplateWarnings(spec({ containers: [{ name: 'foo' }] }, { annotations }), 'template'))
      .toEqual(['template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/foo]: deprecated since v1.30; use the "appArmorProfile" field instead']);
    expect(podWarnings(spec({ containers: [{ name: 'foo' }] }, { annotations }))).toEqual([]);
    expect(podTemplateWarnings(spec({ securityContext: unconfined, containers: [{ name: 'foo' }] }, { annotations }), 'template')).toEqual([]);
    expect(podTemplateWarnings(spec({ containers: [{ name: 'foo', securityContext: unconfined }] }, { annotations }), 'template')).toEqual([]);
  });

  it('warns of a negative grace period and of null label selectors', () => {
    expect(both({ terminationGracePeriodSeconds: -1 })).toEqual(['spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1']);
    expect(both({ topologySpreadConstraints: [{ topologyKey: 'zone', labelSelector: {} }, { topologyKey: 'zone' }] }))
      .toEqual(['spec.topologySpreadConstraints[1].labelSelector: a null labelSelector results in matching no pod']);
    const terms = { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }, {}], preferredDuringSchedulingIgnoredDuringExecution: [{ podAffinityTerm: { labelSelector: {} } }, { podAffinityTerm: {} }] };
    expect(both({ affinity: { podAffinity: terms, podAntiAffinity: terms } })).toEqual(['podAffinity', 'podAntiAffinity'].flatMap((k) => [
      `spec.affinity.${k}.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod`,
      `spec.affinity.${k}.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod`,
    ]));
  });

  it('warns of ports defined twice, overlapping or ambiguously, across containers', () => {
    const udp = (p: KubeObject): KubeObject => ({ containerPort: 80, protocol: 'UDP', ...p });
    expect(both(ports([]))).toEqual([]);
    expect(both(ports([{ containerPort: 80, protocol: 'UDP' }, { containerPort: 81, protocol: 'UDP' }]))).toEqual([]);
    expect(both(ports([udp({}), udp({ protocol: 'TCP' })]))).toEqual([]);
    expect(both(ports([udp({ hostPort: 80 }), udp({ hostPort: 81 })]))).toEqual([]);
    expect(both(ports([udp({ hostPort: 80, hostIP: '10.0.0.1' })], [udp({ hostPort: 80, hostIP: '10.0.0.2' })]))).toEqual([]);
    expect(both(ports([udp({}), udp({})]))).toEqual(['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]']);
    expect(both(ports([udp({ hostPort: 80, hostIP: '10.0.0.1' })], [udp({ hostPort: 80, hostIP: '10.0.0.1' })])))
      .toEqual(['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]']);
    expect(both(ports([udp({ hostIP: '10.0.0.1' })])))
      .toEqual(['spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}']);
    expect(both(ports([udp({ hostPort: 80, hostIP: '10.0.0.1' }), udp({ name: 'dns', hostIP: '10.0.0.1' })]))).toEqual([
      'spec.containers[0].ports[1]: hostIP set without hostPort: {Name:dns HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
      'spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]',
    ]);
    expect(both(ports([udp({ hostPort: 80, hostIP: '10.0.0.1' }), udp({ hostPort: 80 }), udp({ hostPort: 80, hostIP: '10.0.0.2' })]))).toEqual([
      'spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[2]: dangerously ambiguous port definition with spec.containers[0].ports[1]',
    ]);
    const tcp = { containerPort: 80, hostPort: 80, protocol: 'TCP' };
    expect(both(ports([tcp, { ...tcp, containerPort: 180 }, tcp], [tcp, tcp]))).toEqual([
      'spec.containers[0].ports[2]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[1].ports[0]',
    ]);
  });

  it('has nothing to say of a plain spec, nor of an absent template', () => {
    expect(both({
      nodeSelector: { foo: 'bar' }, hostAliases: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }], imagePullSecrets: [{ name: 's1' }, { name: 's2' }],
      containers: [{ name: 'c', env: [{ name: 'a' }, { name: 'b' }], resources: { requests: { memory: '4M' } }, ports: [{ containerPort: 80, protocol: 'TCP' }] }],
      volumes: [{ name: 'a', emptyDir: {} }],
    }, { annotations: { foo: 'bar' } })).toEqual([]);
    expect(podTemplateWarnings(undefined, 'spec.template')).toEqual([]);
  });

  it('warns in the order upstream checks, for the pod of the report', () => {
    const pod = {
      metadata: { name: 'warnpod', annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' } },
      spec: {
        nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' },
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] }] } } },
        containers: [{ name: 'c', image: 'nginx', resources: { limits: { memory: '100m' } }, ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP' }] }],
      },
    };
    expect(podWarnings(pod)).toEqual([
      'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer',
      'spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
    ]);
  });
});

describe('persistent volume claim spec warnings', () => {
  it('warns of fractional storage requests and limits', () => {
    expect(pvcSpecWarnings({ resources: { requests: { storage: '1.5' }, limits: { storage: '2500m' } } }, 'spec')).toEqual([
      'spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.resources.limits[storage]: fractional byte value "2500m" is invalid, must be an integer',
    ]);
    expect(pvcSpecWarnings({ resources: { requests: { storage: '1Gi' } } }, 'spec')).toEqual([]);
  });
});
