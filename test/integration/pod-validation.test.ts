// Pod-level pod spec validation, judged by the real kubectl: bad pods, and pod templates of workloads, are refused
// with upstream's 422 text (field paths and messages as kube-apiserver v1.32 words them), and a pod that uses the
// pod spec's many fields is accepted. Only pod-level fields are asserted on (containers have their own tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
});
afterAll(async () => { await s?.close(); });

/** A pod named p with one container, plus `spec` (YAML lines indented by two). */
const pod = (spec: string, container = '{name: c, image: nginx}'): string =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [${container}]\n${spec}\n`;

/** kubectl create --dry-run=server of `yaml`: its stderr, which must say it failed. */
async function refused(yaml: string): Promise<string> {
  const r = await s.kubectlWithInput(yaml, 'create', '--dry-run=server', '-f', '-');
  expect(r.code, r.stdout).not.toBe(0);
  return r.stderr.trim();
}

describe('pod spec validation (kubectl)', () => {
  it('refuses unknown restart and DNS policies', async () => {
    expect(await refused(pod('  restartPolicy: Sometimes')))
      .toBe('The Pod "p" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"');
    expect(await refused(pod('  dnsPolicy: Foo')))
      .toBe('The Pod "p" is invalid: spec.dnsPolicy: Unsupported value: "Foo": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"');
    expect(await refused(pod('  dnsPolicy: None')))
      .toBe('The Pod "p" is invalid: spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None');
  });

  it('refuses bad volumes', async () => {
    expect(await refused(pod('  volumes: [{name: Bad_V, emptyDir: {}}]'))).toBe('The Pod "p" is invalid: spec.volumes[0].name: Invalid value: "Bad_V": '
      + "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character "
      + "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    expect(await refused(pod('  volumes: [{name: v, emptyDir: {}, hostPath: {path: /tmp}}]')))
      .toBe('The Pod "p" is invalid: spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type');
    expect(await refused(pod('  volumes: [{name: v, configMap: {name: cm, defaultMode: 1000, items: [{key: k, path: ../x}]}}]'))).toBe('The Pod "p" is invalid: \n'
      + '* spec.volumes[0].configMap.defaultMode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive\n'
      + "* spec.volumes[0].configMap.items[0].path: Invalid value: \"../x\": must not contain '..'");
    expect(await refused(pod('  volumes: [{name: a, emptyDir: {}}, {name: a, secret: {secretName: s}}]')))
      .toBe('The Pod "p" is invalid: spec.volumes[1].name: Duplicate value: "a"');
  });

  it('refuses bad node selectors, tolerations and scheduling constraints', async () => {
    expect(await refused(pod('  nodeSelector: {"bad key!": x}'))).toBe('The Pod "p" is invalid: spec.nodeSelector: Invalid value: "bad key!": '
      + "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
      + "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
    expect(await refused(pod('  tolerations: [{key: k, operator: Foo, value: v}, {key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]'))).toBe('The Pod "p" is invalid: \n'
      + '* spec.tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"\n'
      + "* spec.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set");
    expect(await refused(pod('  topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: Maybe}]'))).toBe('The Pod "p" is invalid: \n'
      + '* spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero\n'
      + '* spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"');
    expect(await refused(pod('  affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, podAffinityTerm: {topologyKey: zone}}]}}')))
      .toBe('The Pod "p" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100');
  });

  it('refuses host ports that differ from container ports on the host network, and bad deadlines and IDs', async () => {
    expect(await refused(pod('  hostNetwork: true', '{name: c, image: nginx, ports: [{containerPort: 80, hostPort: 81}]}')))
      .toBe('The Pod "p" is invalid: spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true');
    expect(await refused(pod('  activeDeadlineSeconds: 0')))
      .toBe('The Pod "p" is invalid: spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive');
    expect(await refused(pod('  hostPID: true\n  shareProcessNamespace: true\n  securityContext: {runAsUser: -1}'))).toBe('The Pod "p" is invalid: \n'
      + '* spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive\n'
      + '* spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled');
  });

  it('drops the fields of gates off in 1.32 (hostUsers, resizePolicy, pod-level resources), as upstream', async () => {
    const yaml = pod('  hostUsers: false\n  resources: {limits: {cpu: "1"}}', '{name: c, image: nginx, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]}')
      .replace('name: p}', 'name: gated}');
    const out = JSON.parse(await cleanStdout(s.kubectlWithInput(yaml, 'create', '--dry-run=server', '-o', 'json', '-f', '-')));
    expect(out.spec.hostUsers).toBeUndefined();
    expect(out.spec.resources).toBeUndefined();
    expect(out.spec.containers[0].resizePolicy).toBeUndefined();
  });

  it('says a missing required field once, in upstream\'s words', async () => {
    expect(await refused(pod('  securityContext: {seccompProfile: {}}')))
      .toBe('The Pod "p" is invalid: spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set');
    expect(await refused(pod('  topologySpreadConstraints: [{maxSkew: 1, whenUnsatisfiable: DoNotSchedule}]')))
      .toBe('The Pod "p" is invalid: spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty');
    expect(await refused(pod('  schedulingGates: [{}]'))).toMatch(/^The Pod "p" is invalid: \n\* spec\.schedulingGates\[0\]: Invalid value: "": name part must be non-empty\n\* spec\.schedulingGates\[0\]: Invalid value: "": name part must consist of [^\n]*$/);
    // a required field no rule of the pod's reports still is
    expect(await refused(pod('  volumes: [{name: v, nfs: {path: /x}}]'))).toBe('The Pod "p" is invalid: spec.volumes[0].nfs.server: Required value');
    // and what upstream does not check is taken: a sysctl's or an HTTP header's empty value, an iSCSI disk without lun
    const taken = await s.kubectlWithInput(pod('  securityContext: {sysctls: [{name: net.core.somaxconn}]}\n'
      + '  volumes: [{name: v, iscsi: {targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage"}}]',
    '{name: c, image: nginx, livenessProbe: {httpGet: {port: 80, httpHeaders: [{name: X-Empty}]}}}'), 'create', '--dry-run=server', '-f', '-');
    expect([taken.code, taken.stderr]).toEqual([0, '']);
  });

  it('takes a negative grace period, as upstream does (it deletes such a pod after 1s)', async () => {
    const r = await s.kubectlWithInput(pod('  terminationGracePeriodSeconds: -5'), 'create', '--dry-run=server', '-f', '-');
    expect(r.code, r.stderr).toBe(0);
  });

  it('refuses bad pod templates of a Deployment and a Job under their paths', async () => {
    const deploy = JSON.parse(await cleanStdout(s.kubectl('create', 'deployment', 'd', '--image=nginx', '--dry-run=client', '-o', 'json')));
    deploy.spec.template.spec.volumes = [{ name: 'v', persistentVolumeClaim: { claimName: 'c' }, nfs: { server: 'nfs', path: '/x' } }];
    expect(await refused(JSON.stringify(deploy)))
      .toBe('The Deployment "d" is invalid: spec.template.spec.volumes[0].persistentVolumeClaim: Forbidden: may not specify more than 1 volume type');
    const job = JSON.parse(await cleanStdout(s.kubectl('create', 'job', 'j', '--image=busybox', '--dry-run=client', '-o', 'json')));
    job.spec.template.spec.tolerations = [{ operator: 'Equal', value: 'x' }];
    expect(await refused(JSON.stringify(job))).toContain('The Job "j" is invalid: spec.template.spec.tolerations[0].operator: Invalid value: "Equal": '
      + 'operator must be Exists when `key` is empty, which means "match all values and all keys"');
  });

  it('accepts a pod that uses the pod spec\'s many fields', async () => {
    const full = `apiVersion: v1
kind: Pod
metadata: {name: full, labels: {app: web, pod-template-hash: abc}}
spec:
  containers:
  - name: c
    image: nginx
    ports: [{containerPort: 8080}]
    volumeMounts: [{name: data, mountPath: /data}, {name: cfg, mountPath: /etc/cfg}, {name: info, mountPath: /etc/info}, {name: proj, mountPath: /var/run/proj}]
  restartPolicy: OnFailure
  dnsPolicy: None
  dnsConfig: {nameservers: [10.0.0.10, "fd00::10"], searches: [svc.cluster.local., example.com], options: [{name: ndots, value: "2"}]}
  hostname: web-0
  subdomain: web
  nodeSelector: {kubernetes.io/os: linux}
  terminationGracePeriodSeconds: 10
  activeDeadlineSeconds: 3600
  preemptionPolicy: PreemptLowerPriority
  os: {name: linux}
  securityContext:
    runAsUser: 1000
    runAsGroup: 1000
    fsGroup: 2000
    supplementalGroups: [3000]
    fsGroupChangePolicy: OnRootMismatch
    sysctls: [{name: net.ipv4.ip_local_port_range, value: "1024 65535"}]
    seccompProfile: {type: RuntimeDefault}
  tolerations:
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a, b]}]}]
      preferredDuringSchedulingIgnoredDuringExecution: [{weight: 50, preference: {matchExpressions: [{key: disk, operator: Exists}]}}]
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname, matchLabelKeys: [pod-template-hash]}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, minDomains: 2, labelSelector: {matchLabels: {app: web}}, nodeTaintsPolicy: Honor}
  hostAliases: [{ip: 10.1.2.3, hostnames: [foo.local, bar]}]
  readinessGates: [{conditionType: example.com/ready}]
  schedulingGates: [{name: example.com/quota}]
  volumes:
  - {name: data, emptyDir: {sizeLimit: 1Gi}}
  - {name: cfg, configMap: {name: cm, defaultMode: 0644, items: [{key: a, path: dir/a}]}}
  - {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}, {path: cpu, resourceFieldRef: {containerName: c, resource: limits.cpu, divisor: 1m}}]}}
  - {name: proj, projected: {sources: [{secret: {name: s}}, {downwardAPI: {items: [{path: ns, fieldRef: {fieldPath: metadata.namespace}}]}}]}}
  - {name: scratch, ephemeral: {volumeClaimTemplate: {metadata: {labels: {a: b}}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}}
  - {name: claim, persistentVolumeClaim: {claimName: pvc}}
  - {name: inline, csi: {driver: inline.storage.example.com}}
`;
    expect(await cleanStdout(s.kubectlWithInput(full, 'create', '--dry-run=server', '-f', '-'))).toBe('pod/full created (server dry run)\n');
  });
});
