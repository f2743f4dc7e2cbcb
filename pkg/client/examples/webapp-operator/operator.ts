// The operator as deployed: any number of replicas campaign for one coordination.k8s.io/v1 Lease and only the
// leader runs the controller; the others stand by and take over when the leader releases the lease (on shutdown)
// or stops renewing it (when it dies).
import type { Logger } from 'pino';
import type { Client } from '../../client.js';
import { LeaderElector } from '../../leaderelection.js';
import { runWebAppController } from './controller.js';
import { FIELD_MANAGER } from './webapp.js';

export interface OperatorOptions {
  /** This replica's name in the Lease (pod name, host name + pid). */
  identity: string;
  /** Where the Lease lives. */
  leaseNamespace?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  workers?: number;
  logger?: Logger;
  onNewLeader?(identity: string): void;
}

/** Campaigns, then reconciles WebApps while leading; returns once `signal` aborts (releasing the lease) or leadership is lost. */
export async function runWebAppOperator(client: Client, signal: AbortSignal, o: OperatorOptions): Promise<void> {
  let leading: Promise<void> | undefined;
  await new LeaderElector({
    leases: client.leases(o.leaseNamespace ?? 'default'),
    name: FIELD_MANAGER,
    identity: o.identity,
    leaseDurationMs: o.leaseDurationMs,
    renewDeadlineMs: o.renewDeadlineMs,
    retryPeriodMs: o.retryPeriodMs,
    logger: o.logger,
    callbacks: {
      onStartedLeading: (leaderSignal) => {
        leading = runWebAppController(client, leaderSignal, { workers: o.workers, logger: o.logger });
        return leading;
      },
      onNewLeader: o.onNewLeader,
    },
  }).run(signal);
  // The elector releases the lease without waiting for the controller; wait here so no write outlives the run.
  await leading;
}
