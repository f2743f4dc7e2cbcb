import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { AlwaysPullImages } from './always-pull-images.js';
import { AlwaysDeny } from './always.js';
import { readAdmissionConfiguration } from './config.js';
import { DefaultTolerationSeconds } from './default-toleration-seconds.js';
import { LimitRanger } from './limit-ranger.js';
import { validatePluginNames } from './names.js';
import { NamespaceExists } from './namespace-exists.js';
import { NodeRestriction } from './node-restriction.js';
import { Priority } from './priority.js';
import { enabledPlugins } from './registry.js';
import { ALL_ORDERED_PLUGINS, DEFAULT_OFF_PLUGINS } from './names.js';
import { attrs, memoryDeps } from './testing.js';

const pod = (spec: KubeObject, meta: KubeObject = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ...meta }, spec });
const container = (extra: KubeObject = {}): KubeObject => ({ name: 'c', image: 'nginx', ...extra });

describe('plugin selection', () => {
  it('has upstream default-on plugins and refuses unknown names', () => {
    expect(enabledPlugins(ALL_ORDERED_PLUGINS, { enable: [], disable: [], offByDefault: DEFAULT_OFF_PLUGINS }))
      .toEqual(['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
    expect(enabledPlugins(ALL_ORDERED_PLUGINS, { enable: ['AlwaysPullImages'], disable: ['ResourceQuota'], offByDefault: DEFAULT_OFF_PLUGINS }))
      .toEqual(['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'AlwaysPullImages', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook']);
    expect(validatePluginNames(['Nope'], ['Priority', 'AlsoNope'])).toEqual([
      'enable-admission-plugins plugin "Nope" is unknown', 'disable-admission-plugins plugin "AlsoNope" is unknown',
    ]);
    expect(validatePluginNames(['Priority'], ['Priority'])).toEqual(['[Priority] in enable-admission-plugins and disable-admission-plugins overlapped']);
  });

  it('reads an AdmissionConfiguration with inline and file configurations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admission-config-'));
    await writeFile(join(dir, 'ps.yaml'), 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n');
    await writeFile(join(dir, 'admission.yaml'), [
      'apiVersion: apiserver.config.k8s.io/v1', 'kind: AdmissionConfiguration', 'plugins:',
      '- name: PodSecurity', '  path: ps.yaml', '- name: Other', '  configuration: {a: 1}',
    ].join('\n'));
    const configs = await readAdmissionConfiguration(join(dir, 'admission.yaml'));
    expect(configs.get('PodSecurity')).toMatchObject({ kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } });
    expect(configs.get('Other')).toEqual({ a: 1 });
    await writeFile(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
    await expect(readAdmissionConfiguration(join(dir, 'bad.yaml'))).rejects.toThrow(/not an AdmissionConfiguration/);
  });
});

describe('simple plugins', () => {
  it('AlwaysDeny refuses with upstream message', () => {
    expect(() => new AlwaysDeny().validate(attrs('pods', 'CREATE', pod({})))).toThrow('pods "p" is forbidden: admission control is denying all modifications');
  });

  it('NamespaceExists refuses a missing namespace', () => {
    const p = new NamespaceExists(memoryDeps());
    expect(() => p.validate(attrs('pods', 'CREATE', pod({})))).toThrow('namespaces "ns" not found');
  });

  it('AlwaysPullImages sets and checks the pull policy', () => {
    const p = new AlwaysPullImages();
    const a = attrs('pods', 'CREATE', pod({ containers: [container({ imagePullPolicy: 'IfNotPresent' })], initContainers: [container({ name: 'i' })] }));
    p.admit(a);
    expect(a.object!.spec.containers[0].imagePullPolicy).toBe('Always');
    expect(a.object!.spec.initContainers[0].imagePullPolicy).toBe('Always');
    const b = attrs('pods', 'CREATE', pod({ containers: [container({ imagePullPolicy: 'Never' })] }));
    expect(() => p.validate(b)).toThrow('pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"');
  });

  it('DefaultTolerationSeconds adds the two tolerations unless present', () => {
    const a = attrs('pods', 'CREATE', pod({ containers: [container()], tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] }));
    new DefaultTolerationSeconds().admit(a);
    expect(a.object!.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });
});

describe('Priority', () => {
  const deps = memoryDeps([
    { group: 'scheduling.k8s.io', plural: 'priorityclasses', obj: { metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' } },
    { group: 'scheduling.k8s.io', plural: 'priorityclasses', obj: { metadata: { name: 'default' }, value: 5, globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' } },
  ]);
  const p = new Priority(deps);

  it('resolves the class, the global default, and refuses an unknown class', () => {
    const a = attrs('pods', 'CREATE', pod({ containers: [container()], priorityClassName: 'high' }));
    p.admit(a);
    expect(a.object!.spec).toMatchObject({ priority: 1000, preemptionPolicy: 'Never' });
    const b = attrs('pods', 'CREATE', pod({ containers: [container()] }));
    p.admit(b);
    expect(b.object!.spec).toMatchObject({ priority: 5, priorityClassName: 'default' });
    const none = attrs('pods', 'CREATE', pod({ containers: [container()] }));
    new Priority(memoryDeps([])).admit(none);
    expect(none.object!.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(none.object!.spec!.priorityClassName).toBeUndefined();
    expect(() => p.admit(attrs('pods', 'CREATE', pod({ priorityClassName: 'nope' })))).toThrow('pods "p" is forbidden: no PriorityClass with name nope was found');
    expect(() => p.admit(attrs('pods', 'CREATE', pod({ priorityClassName: 'high', priority: 3 }))))
      .toThrow('the integer value of priority (3) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
  });

  it('allows one global default', () => {
    const a = attrs('priorityclasses', 'CREATE', { metadata: { name: 'other' }, value: 1, globalDefault: true }, { group: 'scheduling.k8s.io' });
    expect(() => p.validate(a)).toThrow('priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass default is already marked as default. Only one default can exist');
  });
});

describe('LimitRanger', () => {
  const deps = memoryDeps([{ plural: 'limitranges', obj: { metadata: { name: 'lr', namespace: 'ns' }, spec: { limits: [
    { type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '250m', memory: '64Mi' }, max: { cpu: '1' }, min: { memory: '32Mi' }, maxLimitRequestRatio: { cpu: '4' } },
  ] } } }]);
  const p = new LimitRanger(deps);

  it('defaults requests and limits and notes it in an annotation', () => {
    const a = attrs('pods', 'CREATE', pod({ containers: [container()] }));
    p.admit(a);
    expect(a.object!.spec.containers[0].resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '250m', memory: '64Mi' } });
    expect(a.object!.metadata!.annotations!['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container c; cpu limit for container c');
    expect(() => p.validate(a)).not.toThrow();
  });

  it('notes the containers before the init containers, as upstream', () => {
    const a = attrs('pods', 'CREATE', pod({ initContainers: [{ ...container(), name: 'i' }], containers: [container()] }));
    p.admit(a);
    expect(a.object!.metadata!.annotations!['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container c; cpu limit for container c; '
      + 'cpu, memory request for init container i; cpu limit for init container i');
  });

  it('enforces min, max and ratio with upstream messages', () => {
    const a = attrs('pods', 'CREATE', pod({ containers: [container({ resources: { requests: { cpu: '100m', memory: '16Mi' }, limits: { cpu: '2' } } })] }));
    expect(() => p.validate(a)).toThrow('pods "p" is forbidden: [minimum memory usage per Container is 32Mi, but request is 16Mi, maximum cpu usage per Container is 1, but limit is 2, cpu max limit to request ratio per Container is 4, but provided ratio is 20.000000]');
  });
});

describe('NodeRestriction', () => {
  const p = new NodeRestriction(memoryDeps());
  const user = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

  it('limits a node to itself', () => {
    expect(() => p.validate(attrs('nodes', 'UPDATE', { metadata: { name: 'n2' } }, { user, name: 'n2', oldObject: { metadata: { name: 'n2' } } })))
      .toThrow('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    expect(() => p.validate(attrs('nodes', 'UPDATE', { metadata: { name: 'n1', labels: { 'node-restriction.kubernetes.io/x': 'y' } } }, { user, name: 'n1', oldObject: { metadata: { name: 'n1' } } })))
      .toThrow('node "n1" is not allowed to modify labels: node-restriction.kubernetes.io/x');
    expect(() => p.validate(attrs('pods', 'CREATE', pod({ nodeName: 'n1', containers: [container()] }), { user })))
      .toThrow('pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods');
    expect(() => p.validate(attrs('pods', 'UPDATE', pod({ nodeName: 'n2' }), { user, subresource: 'status', oldObject: pod({ nodeName: 'n2' }) })))
      .toThrow('node "n1" can only update pod status for pods with spec.nodeName set to itself');
    expect(() => p.validate(attrs('pods', 'UPDATE', pod({ nodeName: 'n1' }), { user, subresource: 'status', oldObject: pod({ nodeName: 'n1' }) }))).not.toThrow();
    // a status write may carry labels; a kubelet's may not change them
    const labeled = { ...pod({ nodeName: 'n1' }), metadata: { name: 'p', namespace: 'default', labels: { a: '1' } } };
    expect(() => p.validate(attrs('pods', 'UPDATE', { ...labeled, metadata: { ...labeled.metadata, labels: { a: '2' } } }, { user, subresource: 'status', oldObject: labeled })))
      .toThrow('node "n1" cannot update labels through pod status');
  });
});
