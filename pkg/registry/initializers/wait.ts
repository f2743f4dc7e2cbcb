// A create of an object that initializers must act on answers once they have (upstream 1.13:
// Store.WaitForInitialized): with the initialized object, with the Status an initializer set as the failure
// result, or with a timeout (the request's ?timeout=, 30 s by default, as upstream's create handler).
import type { KubeObject } from '../../../api/types.js';
import { parseGoDurationMs } from '../../apimachinery/duration.js';
import { internalError, StatusError } from '../../apimachinery/errors.js';
import { setLongTimeout } from '../../apimachinery/long-timeout.js';
import type { Registry, Result } from '../generic/registry.js';
import { isUninitialized } from './visibility.js';

const DEFAULT_TIMEOUT_MS = 30_000;
/** Go's Duration.String() for the durations a client sends: "30s", "1.5s", "500ms", "2m0s". */
const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${ms}ms`;
  const m = Math.floor(ms / 60_000);
  const s = (ms % 60_000) / 1000;
  return m ? `${m}m${s}s` : `${s}s`;
};

/** The Status an initializer set as the failure result, as the error the client gets. */
function failure(obj: KubeObject): StatusError | undefined {
  const result = (obj.metadata as { initializers?: { result?: Record<string, any> } }).initializers?.result;
  if (!result) return undefined;
  return new StatusError(result.code || 500, result.reason ?? '', result.message ?? '', result.details);
}

export async function waitForInitialized(reg: Registry, created: Result, timeoutParam: string | undefined): Promise<Result> {
  if (!isUninitialized(created.object)) return created;
  const failed = failure(created.object);
  if (failed) throw failed;
  // Upstream's create handler falls back to its default on a timeout it cannot parse (the object exists already).
  const timeoutMs = (timeoutParam ? parseGoDurationMs(timeoutParam) : undefined) ?? DEFAULT_TIMEOUT_MS;
  const meta = created.object.metadata!;
  const key = reg.key(meta.namespace, meta.name!);
  return new Promise<Result>((resolve, reject) => {
    let stop: (() => void) | undefined;
    const timer = setLongTimeout(() => finish(() => reject(new StatusError(504, 'Timeout', `Timeout: request did not complete within requested timeout ${formatDuration(timeoutMs)}`, { retryAfterSeconds: 0 }))), timeoutMs);
    const finish = (settle: () => void): void => {
      timer.cancel();
      stop?.();
      stop = () => {};
      settle();
    };
    stop = reg.deps.cacher.watch({ prefix: key, fromRevision: Number(meta.resourceVersion), sendInitialEvents: false }, {
      onEvent: (ev) => {
        if (ev.key !== key) return;
        const err = failure(ev.kv.object);
        if (err) return finish(() => reject(err));
        if (ev.type === 'DELETED') return finish(() => reject(internalError('object deleted while waiting for creation')));
        if (!isUninitialized(ev.kv.object)) return finish(() => resolve({ object: ev.kv.object, bytes: ev.kv.bytes }));
        return undefined;
      },
      onClose: () => finish(() => reject(new StatusError(504, 'Timeout', `Timeout: server has timed out waiting for the initialization of ${reg.gr.group ? `${reg.gr.resource}.${reg.gr.group}` : reg.gr.resource} ${meta.name}`, { retryAfterSeconds: 0 }))),
    });
  });
}
