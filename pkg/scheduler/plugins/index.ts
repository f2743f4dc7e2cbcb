// The in-tree plugins by name: what a profile's configuration may enable.
import type { PluginFactory } from '../framework/interface.js';
import { interPodAffinity } from './inter-pod-affinity.js';
import { nodeAffinity, taintToleration } from './node-affinity.js';
import { defaultPreemption } from './preemption.js';
import { balancedAllocation, nodeResourcesFit } from './resources.js';
import { defaultBinder, imageLocality, nodeName, nodePorts, nodeUnschedulable, prioritySort, schedulingGates } from './simple.js';
import { podTopologySpread } from './topology-spread.js';
import { volumeBinding } from './volume-binding.js';
import { nodeVolumeLimits } from './node-volume-limits.js';
import { volumeRestrictions } from './volume-restrictions.js';
import { volumeZone } from './volume-zone.js';

export const inTreeRegistry: Record<string, PluginFactory> = {
  PrioritySort: prioritySort,
  SchedulingGates: schedulingGates,
  NodeName: nodeName,
  NodeUnschedulable: nodeUnschedulable,
  TaintToleration: taintToleration,
  NodeAffinity: nodeAffinity,
  NodePorts: nodePorts,
  NodeResourcesFit: nodeResourcesFit,
  NodeResourcesBalancedAllocation: balancedAllocation,
  VolumeRestrictions: volumeRestrictions,
  NodeVolumeLimits: nodeVolumeLimits,
  VolumeBinding: volumeBinding,
  VolumeZone: volumeZone,
  PodTopologySpread: podTopologySpread,
  InterPodAffinity: interPodAffinity,
  ImageLocality: imageLocality,
  DefaultPreemption: defaultPreemption,
  DefaultBinder: defaultBinder,
};
