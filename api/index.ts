// The table of every built-in group-version: its resources, definitions and computed defaults.
import type { Definitions } from './schema.js';
import type { Defaulter, GroupVersion, ResourceType } from './types.js';
import { groupVersion as admissionregistration } from './admissionregistration/v1/index.js';
import { groupVersion as apiextensions } from './apiextensions/v1/index.js';
import { groupVersion as apiregistration } from './apiregistration/v1/index.js';
import { groupVersion as apps } from './apps/v1/index.js';
import { groupVersion as authentication } from './authentication/v1/index.js';
import { groupVersion as authorization } from './authorization/v1/index.js';
import { groupVersion as autoscaling } from './autoscaling/v1/index.js';
import { groupVersion as autoscalingV2 } from './autoscaling/v2/index.js';
import { groupVersion as batch } from './batch/v1/index.js';
import { groupVersion as certificates } from './certificates/v1/index.js';
import { groupVersion as coordination } from './coordination/v1/index.js';
import { groupVersion as core } from './core/v1/index.js';
import { groupVersion as discovery } from './discovery/v1/index.js';
import { groupVersion as node } from './node/v1/index.js';
import { groupVersion as events } from './events/v1/index.js';
import { groupVersion as flowcontrol } from './flowcontrol/v1/index.js';
import { definitions as metaDefinitions } from './meta/v1/index.js';
import { groupVersion as networking } from './networking/v1/index.js';
import { groupVersion as policy } from './policy/v1/index.js';
import { groupVersion as policyV1beta1 } from './policy/v1beta1/index.js';
import { groupVersion as rbac } from './rbac/v1/index.js';
import { groupVersion as scheduling } from './scheduling/v1/index.js';
import { groupVersion as storage } from './storage/v1/index.js';

/** Core first, then the groups in the order a 1.32 apiserver lists them at /apis (by group priority). */
export const builtinGroupVersions: GroupVersion[] = [
  core, apiregistration, apps, events, authentication, authorization, autoscalingV2, autoscaling, batch, certificates, networking, policy, policyV1beta1, rbac, storage, admissionregistration, apiextensions, scheduling, coordination, node, discovery, flowcontrol,
];

export const allDefinitions: Definitions = Object.assign({}, metaDefinitions,
  ...builtinGroupVersions.map((gv) => gv.definitions));

export const allDefaulters: Record<string, Defaulter> = Object.assign({},
  ...builtinGroupVersions.map((gv) => gv.defaulters ?? {}));

const byPath = new Map<string, ResourceType>(builtinGroupVersions.flatMap((gv) =>
  gv.resources.map((r) => [`${r.group}/${r.version}/${r.plural}`, r] as const)));

export const findResource = (group: string, version: string, plural: string): ResourceType | undefined =>
  byPath.get(`${group}/${version}/${plural}`);
