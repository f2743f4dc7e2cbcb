// Probes and lifecycle hooks of a container, as upstream's validateLivenessProbe, validateReadinessProbe,
// validateStartupProbe, validateProbe, validateLifecycle and validateHandler check them. In 1.32 the sleep action is on
// (PodLifecycleSleepAction, beta) and may not sleep 0 seconds (PodLifecycleSleepActionAllowZero is alpha, off).
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import type { KubeObject } from '../../../api/types.js';
import { regexError } from '../../apimachinery/names.js';
import { isObj, list, str } from './field-checks.js';
import { validatePortNumOrName } from './ports.js';
import { int, isSet } from './shapes.js';

const SCHEMES = ['HTTP', 'HTTPS'];
const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const HTTP_HEADER_NAME_ERROR = regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME_FMT, 'X-Header-Name');
const MORE_THAN_ONE = 'may not specify more than 1 handler type';

function validateHTTPGet(http: KubeObject, path: string, out: StatusCause[]): void {
  if (str(http.path) === '') out.push(required(`${path}.path`));
  validatePortNumOrName(http.port, `${path}.port`, out);
  const scheme = str(http.scheme);
  if (!SCHEMES.includes(scheme)) out.push(notSupported(`${path}.scheme`, scheme, SCHEMES));
  // upstream reports a bad header at the list, not at the header
  for (const h of list(http.httpHeaders)) {
    const name = isObj(h) ? str(h.name) : '';
    if (!HTTP_HEADER_NAME.test(name)) out.push(invalidValue(`${path}.httpHeaders`, name, HTTP_HEADER_NAME_ERROR));
  }
}

function validateSleep(sleep: KubeObject, gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  // a pod whose grace period is itself invalid is refused for that alone
  if (gracePeriod === undefined) return;
  const seconds = int(sleep.seconds);
  if (seconds <= 0 || seconds > gracePeriod) {
    out.push(invalidValue(path, seconds, `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`));
  }
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;
type HandlerKey = (typeof PROBE_HANDLERS)[number] | (typeof LIFECYCLE_HANDLERS)[number];

/**
 * validateHandler: exactly one handler of `keys` (a probe's: exec, httpGet, tcpSocket, grpc; a lifecycle hook's: exec,
 * httpGet, tcpSocket, sleep), each checked; a second one is forbidden at its own path.
 */
function validateHandler(handler: KubeObject, keys: readonly HandlerKey[], gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  let handlers = 0;
  for (const key of keys) {
    const h: unknown = handler[key];
    if (!isSet(h)) continue;
    const at = `${path}.${key}`;
    if (handlers > 0) {
      out.push(forbidden(at, MORE_THAN_ONE));
      continue;
    }
    handlers++;
    const action: KubeObject = isObj(h) ? h : {};
    switch (key) {
      case 'exec':
        if (list(action.command).length === 0) out.push(required(`${at}.command`));
        break;
      case 'httpGet':
        validateHTTPGet(action, at, out);
        break;
      case 'tcpSocket':
        validatePortNumOrName(action.port, `${at}.port`, out);
        break;
      case 'grpc':
        // an int32, never a name
        validatePortNumOrName(int(action.port), `${at}.port`, out);
        break;
      case 'sleep':
        validateSleep(action, gracePeriod, at, out);
        break;
    }
  }
  if (handlers === 0) out.push(required(path, 'must specify a handler type'));
}

const NON_NEGATIVE = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

function validateProbe(probe: KubeObject, gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  validateHandler(probe, PROBE_HANDLERS, gracePeriod, path, out);
  for (const key of NON_NEGATIVE) {
    const v = int(probe[key]);
    if (v < 0) out.push(invalidValue(`${path}.${key}`, v, 'must be greater than or equal to 0'));
  }
  if (isSet(probe.terminationGracePeriodSeconds) && int(probe.terminationGracePeriodSeconds) <= 0) {
    out.push(invalidValue(`${path}.terminationGracePeriodSeconds`, int(probe.terminationGracePeriodSeconds), 'must be greater than 0'));
  }
}

export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** A container's probe of that kind, at `path` (".../livenessProbe"): liveness and startup need successThreshold 1,
 * readiness may not set terminationGracePeriodSeconds. */
export function validateContainerProbe(kind: ProbeKind, probe: unknown, gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  if (!isSet(probe)) return;
  const p: KubeObject = isObj(probe) ? probe : {};
  validateProbe(p, gracePeriod, path, out);
  if (kind === 'readinessProbe') {
    if (isSet(p.terminationGracePeriodSeconds)) {
      out.push(invalidValue(`${path}.terminationGracePeriodSeconds`, int(p.terminationGracePeriodSeconds), 'must not be set for readinessProbes'));
    }
  } else if (int(p.successThreshold) !== 1) {
    out.push(invalidValue(`${path}.successThreshold`, int(p.successThreshold), 'must be 1'));
  }
}

/** `lifecycle` of a container at `path` (".../lifecycle"): postStart and preStop, each with one handler. */
export function validateLifecycle(lifecycle: unknown, gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  if (!isObj(lifecycle)) return;
  for (const hook of ['postStart', 'preStop']) {
    const h: unknown = lifecycle[hook];
    if (!isSet(h)) continue;
    validateHandler(isObj(h) ? h : {}, LIFECYCLE_HANDLERS, gracePeriod, `${path}.${hook}`, out);
  }
}
