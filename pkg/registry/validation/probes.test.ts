import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateContainerProbe, validateLifecycle, type ProbeKind } from './probes.js';

const C = 'spec.containers[0]';
const probe = (kind: ProbeKind, p: unknown, grace: number | undefined = 30): string[] => {
  const out: StatusCause[] = [];
  validateContainerProbe(kind, p, grace, `${C}.${kind}`, out);
  return out.map(causeToString);
};
const lifecycle = (l: unknown, grace: number | null = 30): string[] => {
  const out: StatusCause[] = [];
  validateLifecycle(l, grace ?? undefined, `${C}.lifecycle`, out);
  return out.map(causeToString);
};
/** A probe as defaulting leaves it. */
const defaults = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };

describe('probes', () => {
  it('want exactly one handler', () => {
    expect(probe('livenessProbe', { ...defaults })).toEqual([`${C}.livenessProbe: Required value: must specify a handler type`]);
    expect(probe('readinessProbe', { ...defaults, exec: { command: ['x'] }, tcpSocket: { port: 80 }, grpc: { port: 9000 } })).toEqual([
      `${C}.readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`,
      `${C}.readinessProbe.grpc: Forbidden: may not specify more than 1 handler type`,
    ]);
  });

  it('check each handler', () => {
    expect(probe('startupProbe', { ...defaults, httpGet: { path: '', port: 70000, scheme: 'FTP', httpHeaders: [{ name: 'Bad Header', value: 'x' }] } })).toEqual([
      `${C}.startupProbe.httpGet.path: Required value`,
      `${C}.startupProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive`,
      `${C}.startupProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"`,
      `${C}.startupProbe.httpGet.httpHeaders: Invalid value: "Bad Header": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
    ]);
    expect(probe('livenessProbe', { ...defaults, exec: {} })).toEqual([`${C}.livenessProbe.exec.command: Required value`]);
    expect(probe('livenessProbe', { ...defaults, tcpSocket: { port: 'Web' } })).toEqual([
      `${C}.livenessProbe.tcpSocket.port: Invalid value: "Web": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
    ]);
    expect(probe('livenessProbe', { ...defaults, grpc: { port: 0 } })).toEqual([`${C}.livenessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive`]);
  });

  it('check their numbers', () => {
    expect(probe('livenessProbe', { exec: { command: ['x'] }, initialDelaySeconds: -1, timeoutSeconds: -2, periodSeconds: 0, successThreshold: 3, failureThreshold: -4, terminationGracePeriodSeconds: 0 })).toEqual([
      `${C}.livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
      `${C}.livenessProbe.timeoutSeconds: Invalid value: -2: must be greater than or equal to 0`,
      `${C}.livenessProbe.failureThreshold: Invalid value: -4: must be greater than or equal to 0`,
      `${C}.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`,
      `${C}.livenessProbe.successThreshold: Invalid value: 3: must be 1`,
    ]);
    expect(probe('readinessProbe', { ...defaults, exec: { command: ['x'] }, successThreshold: 3, terminationGracePeriodSeconds: 5 })).toEqual([
      `${C}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes`,
    ]);
  });
});

describe('lifecycle', () => {
  it('wants one handler per hook, a sleep within the grace period', () => {
    expect(lifecycle({ postStart: {}, preStop: { sleep: { seconds: 0 } } })).toEqual([
      `${C}.lifecycle.postStart: Required value: must specify a handler type`,
      `${C}.lifecycle.preStop.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
    ]);
    expect(lifecycle({ preStop: { sleep: { seconds: 40 } } }, 30)).toHaveLength(1);
    // a pod without a grace period is refused for that alone
    expect(lifecycle({ preStop: { sleep: { seconds: 40 } } }, null)).toEqual([]);
    expect(lifecycle({ preStop: { exec: { command: ['x'] }, httpGet: { port: 80, path: '/', scheme: 'HTTP' } } })).toEqual([
      `${C}.lifecycle.preStop.httpGet: Forbidden: may not specify more than 1 handler type`,
    ]);
  });
});
