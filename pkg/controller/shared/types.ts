// The shape every controller of the controller-manager shares: one context in, a promise that settles when the
// controller has stopped (after ctx.signal aborts). The controller-manager builds one ControllerContext per
// controller (its own client / recorder if it wants per-controller identities) and starts the ControllerInit
// registered under upstream's --controllers name.
import type { Logger } from 'pino';
import type { Client, Clock, EventRecorder, SharedInformerFactory } from '../../client/index.js';

export interface ControllerContext {
  /** The API client (in production: the controller's own service-account credentials). */
  client: Client;
  /** The process-wide informer factory. A controller registers its informers synchronously at start, then calls
   *  informers.start(signal) itself (starting is idempotent) and waits for its caches to sync. */
  informers: SharedInformerFactory;
  /** Events about the objects the controller manages (component e.g. "deployment-controller"). */
  recorder: EventRecorder;
  /** Aborts when the controller must stop (shutdown or lost leadership). */
  signal: AbortSignal;
  /** Concurrent reconcile workers (upstream's --concurrent-*-syncs). */
  workers: number;
  logger: Logger;
  /** Time source (default realClock); tests inject a FakeClock. */
  clock?: Clock;
  /** --feature-gates as given (a gate not named keeps its upstream default). */
  featureGates?: Record<string, boolean>;
  /** Mounts the controller's debugging endpoint at /debug/controllers/<its name> (upstream's controller.Debuggable). */
  serveDebug?: (handler: DebugHandler) => void;
}

/**
 * A controller's debugging endpoint: the path below /debug/controllers/<name> ("/graph") and the query, answered as
 * upstream's handler would (404 with an empty line for a path it does not know).
 */
export type DebugHandler = (path: string, query: URLSearchParams) => { status: number; contentType: string; body: string };

/** Starts a controller; the returned promise resolves once it has stopped after ctx.signal aborted. */
export type ControllerInit = (ctx: ControllerContext) => Promise<void> | void;
