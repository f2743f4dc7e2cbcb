// The workload controllers by upstream's --controllers names. The controller-manager imports this record.
import { startCronJobController } from './cronjob/cronjob-controller.js';
import { startDaemonSetController } from './daemonset/daemonset-controller.js';
import { startDeploymentController } from './deployment/deployment-controller.js';
import { startJobController } from './job/job-controller.js';
import { startTTLAfterFinishedController } from './job/ttl-after-finished.js';
import { startReplicaSetController, startReplicationController } from './replicaset/replica-set.js';
import { startStatefulSetController } from './statefulset/statefulset-controller.js';
import type { ControllerInit } from './shared/types.js';

export const workloadControllers: Record<string, ControllerInit> = {
  deployment: startDeploymentController,
  replicaset: (ctx) => startReplicaSetController(ctx),
  replicationcontroller: startReplicationController,
  job: startJobController,
  'ttl-after-finished': startTTLAfterFinishedController,
  cronjob: startCronJobController,
  statefulset: startStatefulSetController,
  daemonset: startDaemonSetController,
};
