// apps/v1: Deployments, ReplicaSets, StatefulSets, DaemonSets, ControllerRevisions.
import { ALL_VERBS, type GroupVersion, type ResourceType, type Subresource } from '../../types.js';
import { A } from './common.js';
import { daemonSetDefinitions } from './daemonset.js';
import { defaulters } from './defaults.js';
import { deploymentDefinitions } from './deployment.js';
import { statefulSetDefinitions } from './statefulset.js';

const group = 'apps';
const version = 'v1';
const subresourceVerbs = ['get', 'patch', 'update'];
const status = (kind: string): Subresource => ({ name: 'status', group, version, kind, verbs: subresourceVerbs });
const scale: Subresource = { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: subresourceVerbs };

const workload = (kind: string, plural: string, shortNames: string[], scalable: boolean): ResourceType => ({
  group, version, kind, plural, singular: kind.toLowerCase(), namespaced: true, verbs: ALL_VERBS,
  shortNames, categories: ['all'],
  subresources: scalable ? [status(kind), scale] : [status(kind)],
  definition: A + kind,
});

export const groupVersion: GroupVersion = {
  group,
  version,
  resources: [
    {
      group, version, kind: 'ControllerRevision', plural: 'controllerrevisions', singular: 'controllerrevision',
      namespaced: true, verbs: ALL_VERBS, definition: `${A}ControllerRevision`,
    },
    workload('DaemonSet', 'daemonsets', ['ds'], false),
    workload('Deployment', 'deployments', ['deploy'], true),
    workload('ReplicaSet', 'replicasets', ['rs'], true),
    workload('StatefulSet', 'statefulsets', ['sts'], true),
  ],
  definitions: { ...deploymentDefinitions, ...statefulSetDefinitions, ...daemonSetDefinitions },
  defaulters,
};
