// The workload controllers by upstream's --controllers names. The controller-manager imports this record.
import { startReplicaSetController, startReplicationController } from './replicaset/replica-set.js';
import type { ControllerInit } from './shared/types.js';

export const workloadControllers: Record<string, ControllerInit> = {
  replicaset: (ctx) => startReplicaSetController(ctx),
  replicationcontroller: startReplicationController,
};
