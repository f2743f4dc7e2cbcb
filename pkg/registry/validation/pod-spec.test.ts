import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../apimachinery/names.js';
import { validatePodSpec } from './pod-spec.js';

/** A pod spec as the decoder leaves it (defaults applied), valid. */
const baseSpec = (extra: KubeObject = {}): KubeObject => ({
  containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
  restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler',
  securityContext: {}, ...extra,
});
const messages = (spec: KubeObject, path = 'spec'): string[] => validatePodSpec(spec, path).map((c) => `${c.field}: ${c.message}`);

describe('validatePodSpec', () => {
  it('accepts a valid full-featured pod spec', () => {
    const spec = baseSpec({
      volumes: [
        { name: 'data', emptyDir: { sizeLimit: '1Gi', medium: 'Memory' } },
        { name: 'cfg', configMap: { name: 'cm', defaultMode: 0o644, items: [{ key: 'a', path: 'dir/a', mode: 0o600 }] } },
        { name: 'sec', secret: { secretName: 's', defaultMode: 420 } },
        { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'pvc' } },
        { name: 'info', downwardAPI: { defaultMode: 420, items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } },
          { path: 'cpu', resourceFieldRef: { containerName: 'c', resource: 'limits.cpu', divisor: '1m' } }] } },
        { name: 'proj', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
          { configMap: { name: 'ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } }] } },
        { name: 'scratch', ephemeral: { volumeClaimTemplate: { metadata: { labels: { a: 'b' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
        { name: 'inline', csi: { driver: 'inline.storage.example.com', nodePublishSecretRef: { name: 'creds' } } },
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'builder', nodeName: 'node-1', hostname: 'web-0', subdomain: 'web', priorityClassName: 'high', runtimeClassName: 'runc',
      activeDeadlineSeconds: 600, preemptionPolicy: 'Never', os: { name: 'linux' },
      securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000, supplementalGroups: [3000], fsGroupChangePolicy: 'OnRootMismatch',
        sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }], seccompProfile: { type: 'RuntimeDefault' },
        appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-apparmor' } },
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, { operator: 'Exists' }],
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } }] },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname', matchLabelKeys: ['pod-template-hash'] }] },
      },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 2, labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'], nodeTaintsPolicy: 'Honor' }],
      dnsConfig: { nameservers: ['10.0.0.10'], searches: ['svc.cluster.local.', 'example.com'], options: [{ name: 'ndots', value: '2' }] },
      hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar'] }],
      readinessGates: [{ conditionType: 'example.com/ready' }], schedulingGates: [{ name: 'example.com/quota' }],
      overhead: { cpu: '250m', memory: '120Mi' },
    });
    expect(messages(spec)).toEqual([]);
  });

  it('requires a grace period and containers; a negative grace period is taken (upstream warns)', () => {
    expect(messages(baseSpec({ terminationGracePeriodSeconds: undefined }))).toEqual(['spec.terminationGracePeriodSeconds: Required value']);
    expect(messages(baseSpec({ terminationGracePeriodSeconds: -5 }))).toEqual([]);
    expect(messages(baseSpec({ containers: [] }))).toEqual(['spec.containers: Required value']);
    expect(messages(baseSpec({ containers: undefined }), 'spec.template.spec')).toEqual(['spec.template.spec.containers: Required value']);
  });

  it('checks the restart and DNS policies', () => {
    expect(messages(baseSpec({ restartPolicy: 'Sometimes' }))).toEqual(['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']);
    expect(messages(baseSpec({ restartPolicy: '' }))).toEqual(['spec.restartPolicy: Required value']);
    expect(messages(baseSpec({ dnsPolicy: 'Foo' }))).toEqual(['spec.dnsPolicy: Unsupported value: "Foo": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']);
  });

  it('checks the node selector as labels', () => {
    expect(messages(baseSpec({ nodeSelector: { 'bad key!': 'x', ok: 'bad value!' } }))).toEqual([
      ...isQualifiedName('bad key!').map((m) => `spec.nodeSelector: Invalid value: "bad key!": ${m}`),
      ...isValidLabelValue('bad value!').map((m) => `spec.nodeSelector: Invalid value: "bad value!": ${m}`),
    ]);
  });

  it('requires host ports to be container ports with the host network (a template may leave them 0)', () => {
    const ports = (hostPort: number) => [{ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ports: [{ containerPort: 80, hostPort, protocol: 'TCP' }] }];
    expect(messages(baseSpec({ hostNetwork: true, containers: ports(81) }))).toEqual(['spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true']);
    expect(messages(baseSpec({ hostNetwork: true, containers: ports(0) }), 'spec.template.spec')).toEqual([]);
    expect(messages(baseSpec({ hostNetwork: true, containers: ports(81) }), 'spec.template.spec')).toEqual(['spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true']);
    expect(messages(baseSpec({ hostNetwork: false, containers: ports(81) }))).toEqual([]);
  });

  it('checks readiness and scheduling gates', () => {
    expect(messages(baseSpec({ readinessGates: [{ conditionType: 'bad gate' }] })))
      .toEqual(isQualifiedName('bad gate').map((m) => `spec.readinessGates[0].conditionType: Invalid value: "bad gate": ${m}`));
    expect(messages(baseSpec({ schedulingGates: [{ name: 'example.com/a' }, { name: 'example.com/a' }, { name: 'no way' }] }))).toEqual([
      'spec.schedulingGates[1]: Duplicate value: "example.com/a"',
      ...isQualifiedName('no way').map((m) => `spec.schedulingGates[2]: Invalid value: "no way": ${m}`),
    ]);
  });

  it('checks the names the spec holds', () => {
    const sub = (v: string) => isDNS1123Subdomain(v)[0];
    expect(messages(baseSpec({ serviceAccountName: 'Bad_SA', nodeName: 'Node_1', hostname: 'a.b', subdomain: 'Sub', priorityClassName: 'Hi!', runtimeClassName: '' }))).toEqual([
      `spec.serviceAccountName: Invalid value: "Bad_SA": ${sub('Bad_SA')}`,
      `spec.nodeName: Invalid value: "Node_1": ${sub('Node_1')}`,
      'spec.hostname: Invalid value: "a.b": must not contain dots',
      `spec.subdomain: Invalid value: "Sub": ${isDNS1123Label('Sub')[0]}`,
      `spec.priorityClassName: Invalid value: "Hi!": ${sub('Hi!')}`,
      `spec.runtimeClassName: Invalid value: "": ${sub('')}`,
    ]);
  });

  it('bounds activeDeadlineSeconds and checks the preemption policy', () => {
    expect(messages(baseSpec({ activeDeadlineSeconds: 0 }))).toEqual(['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']);
    expect(messages(baseSpec({ activeDeadlineSeconds: 2147483648 }))).toEqual(['spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive']);
    expect(messages(baseSpec({ preemptionPolicy: 'Sometimes' }))).toEqual(['spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']);
    expect(messages(baseSpec({ preemptionPolicy: '' }))).toEqual(['spec.preemptionPolicy: Required value']);
  });

  it('checks the overhead as container limits', () => {
    expect(messages(baseSpec({ overhead: { cpu: '-1' } }))).toEqual(['spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
  });

  it('checks the OS and what a Linux or Windows pod may not set', () => {
    expect(messages(baseSpec({ os: { name: '' } }))).toEqual(['spec.os.name: Required value: cannot be empty']);
    expect(messages(baseSpec({ os: { name: 'plan9' } }))).toEqual(['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']);
    const windowsOptions = { runAsUserName: 'ContainerUser' };
    expect(messages(baseSpec({ os: { name: 'linux' }, securityContext: { windowsOptions } }))).toEqual(['spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod']);
    const container = { name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', securityContext: { runAsUser: 1 } };
    expect(messages(baseSpec({ os: { name: 'windows' }, hostPID: true, shareProcessNamespace: false, securityContext: { runAsUser: 1, sysctls: [{ name: 'kernel.msgmax', value: '1' }] }, containers: [container] }))).toEqual([
      'spec.hostPID: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod',
      'spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
    ]);
  });

  it('names a template\'s fields under its path', () => {
    expect(messages(baseSpec({ restartPolicy: 'Sometimes', tolerations: [{ key: 'k', operator: 'Foo' }] }), 'spec.jobTemplate.spec.template.spec')).toEqual([
      'spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.jobTemplate.spec.template.spec.tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"',
    ]);
  });

  it('never throws on odd shapes', () => {
    const odd = baseSpec({ volumes: [null, 'x', { name: 3 }], tolerations: 'x', affinity: [], securityContext: null, os: 'linux', dnsConfig: 5,
      topologySpreadConstraints: [null], hostAliases: [null], readinessGates: [null], schedulingGates: [1], nodeSelector: [] });
    expect(() => validatePodSpec(odd, 'spec')).not.toThrow();
  });
});
