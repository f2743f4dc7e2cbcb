// core/v1: the legacy core group ("" group, served under /api/v1).
import type { GroupVersion } from '../../types.js';
import { affinityDefinitions } from './affinity.js';
import { configDefinitions } from './config.js';
import { containerDefinitions } from './container.js';
import { defaulters } from './defaulters.js';
import { eventDefinitions } from './event.js';
import { namespaceDefinitions } from './namespace.js';
import { nodeDefinitions } from './node.js';
import { persistentVolumeDefinitions } from './persistent-volume.js';
import { podStatusDefinitions } from './pod-status.js';
import { podDefinitions } from './pod.js';
import { probeDefinitions } from './probe.js';
import { quotaDefinitions } from './quota.js';
import { referenceDefinitions } from './references.js';
import { replicationControllerDefinitions } from './replication-controller.js';
import { resources } from './resources.js';
import { securityDefinitions } from './security.js';
import { serviceDefinitions } from './service.js';
import { tokenRequestDefinitions } from './token-request.js';
import { volumePluginDefinitions } from './volume-plugins.js';
import { volumeDefinitions } from './volume.js';

export const groupVersion: GroupVersion = {
  group: '',
  version: 'v1',
  resources,
  definitions: {
    ...podDefinitions, ...podStatusDefinitions, ...containerDefinitions, ...probeDefinitions, ...securityDefinitions,
    ...affinityDefinitions, ...volumeDefinitions, ...volumePluginDefinitions, ...persistentVolumeDefinitions,
    ...serviceDefinitions, ...namespaceDefinitions, ...nodeDefinitions, ...configDefinitions, ...eventDefinitions,
    ...quotaDefinitions, ...replicationControllerDefinitions, ...referenceDefinitions, ...tokenRequestDefinitions,
  },
  defaulters,
};
