// The apps kinds' (and ReplicationControllers') rules around the pod spec, each with upstream's path and message.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateDaemonSetSpec } from './daemonsets.js';
import { validateDeploymentSpec } from './deployments.js';
import { validateReplicaSetSpec } from './replicasets.js';
import { validateReplicationControllerSpec } from './replicationcontrollers.js';
import { validateStatefulSetSpec, validateStatefulSetUpdate } from './statefulsets.js';
import { immutableSelector } from './workloads.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const template = (podSpec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
  ({ metadata: { labels: { app: 'a' }, ...meta }, spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'i' }], ...podSpec } });
const obj = (kind: string, spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'apps/v1', kind, metadata: { name: 'x', namespace: 'd' }, spec: { selector: { matchLabels: { app: 'a' } }, template: template(), ...spec } });
const deploy = (spec: Record<string, unknown> = {}): KubeObject => obj('Deployment', {
  replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, ...spec,
});

describe('selectors of apps/v1 controllers', () => {
  it('select nothing when absent: the template\'s labels do not match (the schema reports the selector required)', () => {
    const { selector: _none, ...spec } = deploy().spec;
    expect(msgs(validateDeploymentSpec({ ...deploy(), spec }))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
    ]);
  });

  it('never change once created (an empty map equals an absent one)', () => {
    const a = deploy();
    expect(immutableSelector(deploy({ selector: { matchLabels: { app: 'a' }, matchExpressions: [] } }), a)).toEqual([]);
    expect(msgs(immutableSelector(deploy({ selector: { matchLabels: { app: 'x' } } }), a))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });
});

describe('Deployment', () => {
  it('takes a defaulted Deployment', () => {
    expect(validateDeploymentSpec(deploy())).toEqual([]);
    expect(validateDeploymentSpec(deploy({ strategy: { type: 'Recreate' } }))).toEqual([]);
  });

  it('refuses negative counts and a deadline within minReadySeconds', () => {
    expect(msgs(validateDeploymentSpec(deploy({ replicas: -1, minReadySeconds: -2, revisionHistoryLimit: -3, progressDeadlineSeconds: -4 })))).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -3: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: -4: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: -4: must be greater than minReadySeconds',
    ]);
    expect(msgs(validateDeploymentSpec(deploy({ minReadySeconds: 600 })))).toEqual(['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds']);
  });

  it('checks the strategy', () => {
    expect(msgs(validateDeploymentSpec(deploy({ strategy: { type: 'Recreate', rollingUpdate: {} } }))))
      .toEqual(["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]);
    expect(msgs(validateDeploymentSpec(deploy({ strategy: { type: 'Blue' } }))))
      .toEqual(['spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"']);
    expect(msgs(validateDeploymentSpec(deploy({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }))))
      .toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0']);
    expect(msgs(validateDeploymentSpec(deploy({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: -1, maxUnavailable: '200%' } } })))).toEqual([
      'spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"200%"}: must not be greater than 100%',
    ]);
  });

  it('checks the template: restart policy, deadline, metadata, ephemeral containers, labels the selector selects', () => {
    expect(msgs(validateDeploymentSpec(deploy({ template: template({ restartPolicy: 'OnFailure', activeDeadlineSeconds: 5, ephemeralContainers: [{ name: 'e' }] }) })))).toEqual([
      'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]);
    expect(msgs(validateDeploymentSpec(deploy({ template: template({}, { labels: { app: 'b' } }) }))))
      .toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`']);
    expect(msgs(validateDeploymentSpec(deploy({ template: template({}, { labels: { app: 'a', 'x/y/z': 'v' } }) })))[0])
      .toMatch(/^spec\.template\.labels: Invalid value: "x\/y\/z": a qualified name must consist of/);
    expect(msgs(validateDeploymentSpec(deploy({ selector: { matchLabels: { 'a b': 'c' } } }))))
      .toEqual([
        expect.stringMatching(/^spec\.selector\.matchLabels: Invalid value: "a b": name part must consist of/),
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a b":"c"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: invalid label selector',
      ]);
    expect(msgs(validateDeploymentSpec(deploy({ selector: {} }))))
      .toEqual(['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']);
  });
});

describe('ReplicaSet and ReplicationController', () => {
  it('checks counts and the template', () => {
    expect(validateReplicaSetSpec(obj('ReplicaSet', { replicas: 1 }))).toEqual([]);
    expect(msgs(validateReplicaSetSpec(obj('ReplicaSet', { replicas: -1, minReadySeconds: -1, template: template({ restartPolicy: 'Never' }) })))).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
    const rc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r' }, spec: { replicas: 1, selector: { app: 'a' }, template: template(), ...spec } });
    expect(validateReplicationControllerSpec(rc({}))).toEqual([]);
    expect(msgs(validateReplicationControllerSpec(rc({ selector: {}, replicas: -1, template: template({ activeDeadlineSeconds: 1 }) })))).toEqual([
      'spec.selector: Required value',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
    ]);
    expect(msgs(validateReplicationControllerSpec(rc({ selector: { app: 'z' } }))))
      .toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`']);
    expect(msgs(validateReplicationControllerSpec(rc({ template: undefined })))).toEqual(['spec.template: Required value']);
  });
});

describe('DaemonSet', () => {
  const ds = (spec: Record<string, unknown> = {}): KubeObject =>
    obj('DaemonSet', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10, ...spec });
  it('checks the update strategy', () => {
    expect(validateDaemonSetSpec(ds())).toEqual([]);
    expect(validateDaemonSetSpec(ds({ updateStrategy: { type: 'OnDelete' } }))).toEqual([]);
    expect(msgs(validateDaemonSetSpec(ds({ updateStrategy: { type: 'Now' } }))))
      .toEqual(['spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Now", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"']);
    expect(msgs(validateDaemonSetSpec(ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } } }))))
      .toEqual(['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero']);
    expect(msgs(validateDaemonSetSpec(ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }))))
      .toEqual(['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']);
    expect(msgs(validateDaemonSetSpec(ds({ minReadySeconds: -1, template: template({ activeDeadlineSeconds: 3 }) })))).toEqual([
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('StatefulSet', () => {
  const sts = (spec: Record<string, unknown> = {}): KubeObject => obj('StatefulSet', {
    replicas: 1, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' }, serviceName: 's', ...spec,
  });
  it('checks policies, strategy, counts and the template', () => {
    expect(validateStatefulSetSpec(sts())).toEqual([]);
    expect(msgs(validateStatefulSetSpec(sts({
      podManagementPolicy: 'Random', updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Delete' }, ordinals: { start: -1 },
    })))).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(msgs(validateStatefulSetSpec(sts({ updateStrategy: { type: 'Fast' }, template: template({ restartPolicy: 'Never' }) })))).toEqual([
      "spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Fast\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'",
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
    expect(msgs(validateStatefulSetSpec(sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }))))
      .toEqual(['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0']);
  });

  it('lets an update change only replicas, ordinals, template, updateStrategy, the retention policy and minReadySeconds', () => {
    expect(validateStatefulSetUpdate(sts({ replicas: 3, minReadySeconds: 5, template: template({ hostname: 'h' }) }), sts())).toEqual([]);
    expect(msgs(validateStatefulSetUpdate(sts({ serviceName: 'other' }), sts())))
      .toEqual(["spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"]);
  });
});
