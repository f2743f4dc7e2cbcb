// The probe manager, as upstream's prober: for each running container, a worker per probe (startup, readiness,
// liveness) runs it every periodSeconds after initialDelaySeconds with its timeout and thresholds. Readiness gates
// the container's `ready`; startup gates `started` and holds the others back. A liveness or startup failure kills
// nothing here: as upstream's, it holds its worker and syncs the pod, whose sync kills the container as any other kill
// (failedProbe; its preStop hook, the probe's grace period). Probes run as exec (runtime ExecSync), httpGet, tcpSocket
// or grpc (against the pod IP, or probe.host). A runtime may answer probes itself (the fake runtime reads pod annotations).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { Counter, Histogram, Registry } from 'prom-client';
import type { Clock, EventRecorder, KubeObject, TimerHandle } from '../client/index.js';
import { containerRef } from './container-ref.js';
import { expandVars } from './env.js';
import { goDialError, goTransportError, isTimeout, joinHostPort } from '../apimachinery/go-net-errors.js';
import { grpcProbe } from './grpc-probe.js';
import { PROBE_USER_AGENT } from './node-status.js';
import type { ContainerStatus, Runtime } from './runtime/types.js';

export type ProbeKind = 'startup' | 'readiness' | 'liveness';

export interface Probe {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string; httpHeaders?: { name: string; value: string }[] };
  tcpSocket?: { port: number | string; host?: string };
  grpc?: { port: number; service?: string };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface ProbeResult { ok: boolean; message?: string; /** An exec's stdout and stderr (a lifecycle hook's message quotes them). */ output?: string }

/** A runtime that answers probes itself (the fake runtime). */
export interface ProbingRuntime extends Runtime {
  probe(containerId: string, kind: ProbeKind, probe: Probe): Promise<ProbeResult>;
}

const hasProbe = (r: Runtime): r is ProbingRuntime => typeof (r as Partial<ProbingRuntime>).probe === 'function';

interface SpecContainer {
  name: string;
  env?: { name: string; value?: string }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
}

/**
 * An exec probe's command with $(VAR) expanded from the container's env as written (upstream's
 * ExpandContainerCommandOnlyStatic): a variable set through valueFrom is empty there, an undeclared one stays.
 */
const staticallyExpanded = (command: string[], env: SpecContainer['env']): string[] => {
  const vars: Record<string, string> = {};
  for (const e of env ?? []) vars[e.name] = e.value ?? '';
  return command.map((c) => expandVars(c, vars));
};

interface Worker {
  key: string;
  uid: string;
  containerId: string;
  kind: ProbeKind;
  timer?: TimerHandle;
  successes: number;
  failures: number;
  result?: boolean;
  stopped: boolean;
  /**
   * A liveness or startup failure: its container is to be killed (failedProbe). No more probes, but the worker stays
   * until the container leaves the running list, so that a sync seeing it still running (stopping) starts no second
   * worker (upstream's onHold, until a new container ID).
   */
  onHold?: boolean;
  /** Its metrics' labels, once it has run. */
  labels?: { probe_type: string; container: string; pod: string; namespace: string };
}

const label: Record<ProbeKind, string> = { startup: 'Startup', readiness: 'Readiness', liveness: 'Liveness' };

/**
 * The kubelet's /metrics/probes: every probe run by result, and how long the successful ones took, with upstream's
 * names and labels; a container's series go with its probe worker. One registry per process, as its own figures.
 */
export const proberMetrics = new Registry();
const probeTotal = new Counter({
  name: 'prober_probe_total', help: 'Cumulative number of a liveness, readiness or startup probe for a container by result.',
  labelNames: ['probe_type', 'result', 'container', 'pod', 'namespace', 'pod_uid'] as const, registers: [proberMetrics],
});
const probeDuration = new Histogram({
  name: 'prober_probe_duration_seconds', help: 'Duration in seconds for a probe response.',
  labelNames: ['probe_type', 'container', 'pod', 'namespace'] as const, registers: [proberMetrics],
});

export interface ProbeManagerOptions {
  runtime: Runtime;
  clock: Clock;
  recorder: EventRecorder;
  /** The pod changed its probe state: recompute its status. */
  onChange: (uid: string) => void;
  getPod: (uid: string) => { pod: KubeObject; podIp?: string } | undefined;
}

export class ProbeManager {
  private readonly workers = new Map<string, Worker>();

  constructor(private readonly o: ProbeManagerOptions) {}

  /** Starts workers for running containers that have probes and stops those whose containers are gone. */
  sync(uid: string, pod: KubeObject, containers: ContainerStatus[]): void {
    const specs = [...((pod.spec?.initContainers ?? []) as (SpecContainer & { restartPolicy?: string })[]).filter((c) => c.restartPolicy === 'Always'), ...((pod.spec?.containers ?? []) as SpecContainer[])];
    const live = new Set<string>();
    for (const c of containers) {
      if (c.state !== 'running') continue;
      const spec = specs.find((s) => s.name === c.name);
      if (!spec) continue;
      for (const kind of ['startup', 'readiness', 'liveness'] as ProbeKind[]) {
        const probe = spec[`${kind}Probe`];
        if (!probe) continue;
        const key = `${c.id}/${kind}`;
        live.add(key);
        if (!this.workers.has(key)) this.startWorker({ key, uid, containerId: c.id, kind, successes: 0, failures: 0, stopped: false }, spec, probe, c);
      }
    }
    for (const [key, w] of this.workers) if (w.uid === uid && !live.has(key)) this.stopWorker(w);
  }

  /**
   * The probe whose failure has the running container killed, if one has failed (liveness before startup, as
   * upstream's computePodActions asks).
   */
  failedProbe(containerId: string): 'liveness' | 'startup' | undefined {
    return (['liveness', 'startup'] as const).find((kind) => this.workers.get(`${containerId}/${kind}`)?.onHold);
  }

  /** Undefined: no such probe; else its last result (readiness and startup start out false). */
  result(containerId: string, kind: ProbeKind): boolean | undefined {
    const w = this.workers.get(`${containerId}/${kind}`);
    return w ? w.result ?? false : undefined;
  }

  forget(uid: string): void { for (const w of this.workers.values()) if (w.uid === uid) this.stopWorker(w); }

  close(): void { for (const w of this.workers.values()) this.stopWorker(w); }

  private stopWorker(w: Worker): void {
    if (w.labels && !w.stopped) {
      for (const result of ['successful', 'failed']) probeTotal.remove({ ...w.labels, result, pod_uid: w.uid });
      probeDuration.remove(w.labels);
    }
    w.stopped = true;
    w.timer?.cancel();
    this.workers.delete(w.key);
  }

  private startWorker(w: Worker, spec: SpecContainer, probe: Probe, c: ContainerStatus): void {
    this.workers.set(w.key, w);
    const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
    const started = c.startedAt ?? this.o.clock.now();
    const firstAt = Math.max(0, started + (probe.initialDelaySeconds ?? 0) * 1000 - this.o.clock.now());
    const tick = async (): Promise<void> => {
      if (w.stopped || w.onHold) return;
      await this.runOnce(w, spec, probe);
      if (!w.stopped && !w.onHold) w.timer = this.o.clock.setTimer(() => void tick(), period);
    };
    w.timer = this.o.clock.setTimer(() => void tick(), firstAt);
  }

  private async runOnce(w: Worker, spec: SpecContainer, probe: Probe): Promise<void> {
    if (w.kind !== 'startup') {
      const startup = this.result(w.containerId, 'startup');
      if (startup === false) return; // held back until the startup probe succeeds
    }
    const entry = this.o.getPod(w.uid);
    if (!entry) return;
    let res: ProbeResult;
    const began = this.o.clock.now();
    try {
      res = await this.execute(w, spec, probe, entry.podIp);
    } catch (err) {
      // the runtime failed (an exec racing the container's exit): as upstream's prober, said so and the result
      // thrown away, neither a failure nor a success
      if (!w.stopped) this.o.recorder.event(containerRef(entry.pod, spec.name), 'Warning', 'Unhealthy', `${label[w.kind]} probe errored: ${(err as Error).message}`);
      return;
    }
    if (w.stopped) return;
    w.labels ??= { probe_type: label[w.kind], container: spec.name, pod: entry.pod.metadata?.name ?? '', namespace: entry.pod.metadata?.namespace ?? '' };
    probeTotal.inc({ ...w.labels, result: res.ok ? 'successful' : 'failed', pod_uid: w.uid });
    if (res.ok) probeDuration.observe(w.labels, (this.o.clock.now() - began) / 1000);
    const before = w.result;
    if (res.ok) {
      w.failures = 0;
      w.successes++;
      if (w.successes >= (w.kind === 'readiness' ? probe.successThreshold ?? 1 : 1)) w.result = true;
    } else {
      w.successes = 0;
      w.failures++;
      // as upstream's prober: the output as the probe gave it (an exec probe's may end in a newline, or be empty)
      this.o.recorder.event(containerRef(entry.pod, spec.name), 'Warning', 'Unhealthy', `${label[w.kind]} probe failed: ${res.message ?? ''}`);
      if (w.failures >= (probe.failureThreshold ?? 3)) {
        w.result = false;
        // the container will need to be restarted: probed no more until a new one (upstream's onHold)
        if (w.kind !== 'readiness') { w.onHold = true; w.timer?.cancel(); }
      }
    }
    // a held worker syncs the pod, which kills its container
    if (before !== w.result || w.onHold) this.o.onChange(w.uid);
  }

  private async execute(w: Worker, spec: SpecContainer, probe: Probe, podIp: string | undefined): Promise<ProbeResult> {
    const rt = this.o.runtime;
    if (hasProbe(rt)) return rt.probe(w.containerId, w.kind, probe);
    if (probe.exec) return execProbe(rt, w.containerId, staticallyExpanded(probe.exec.command ?? [], spec.env), probe.timeoutSeconds ?? 1);
    return runAction(rt, w.containerId, probe, { podIp, ports: spec.ports, timeoutSeconds: probe.timeoutSeconds ?? 1 });
  }
}

/** Upstream's exec prober reads at most this much of a command's output. */
const EXEC_OUTPUT_LIMIT = 10 * 1024;

/**
 * An exec probe as upstream's (pkg/probe/exec): its message is the command's output (stdout, then stderr, at most
 * 10 KiB) whatever the exit code, or, killed at its timeout, `command "<cmd>" timed out`.
 */
export const execProbe = async (rt: Runtime, containerId: string, command: string[], timeoutSeconds: number): Promise<ProbeResult> => {
  const r = await rt.execSync(containerId, command, timeoutSeconds);
  if (r.timedOut) return { ok: false, message: `command ${JSON.stringify(command.join(' '))} timed out` };
  const output = Buffer.from(r.stdout + r.stderr).subarray(0, EXEC_OUTPUT_LIMIT).toString();
  return { ok: r.exitCode === 0, message: output };
};

/**
 * Runs a probe's or a lifecycle hook's action against a container: exec (runtime ExecSync), httpGet, tcpSocket,
 * grpc (grpc-probe.ts). `timeoutSeconds` 0: no timeout; `signal` ends an exec or a GET (a hook's, with its container).
 */
export const runAction = async (
  rt: Runtime, containerId: string, probe: Probe,
  o: {
    podIp?: string; ports?: { name?: string; containerPort: number }[]; timeoutSeconds: number;
    /** a hook's GET succeeds whatever its status */ anyStatus?: boolean; signal?: AbortSignal;
  },
): Promise<ProbeResult> => {
  const podIp = o.podIp;
  const timeoutMs = o.timeoutSeconds > 0 ? o.timeoutSeconds * 1000 : 0;
  const port = (p: number | string): number => (typeof p === 'number' ? p : (o.ports?.find((x) => x.name === p)?.containerPort ?? Number(p)));
  if (probe.exec) {
    const r = await rt.execSync(containerId, probe.exec.command ?? [], o.timeoutSeconds, o.signal);
    // the CRI's ExecSync error, as upstream's remote runtime words it
    return r.exitCode === 0 ? { ok: true } : { ok: false, message: `command '${(probe.exec.command ?? []).join(' ')}' exited with ${r.exitCode}: ${r.stderr}`, output: r.stdout + r.stderr };
  }
  if (probe.httpGet) {
    const g = probe.httpGet;
    const host = g.host || podIp || '127.0.0.1';
    const https = (g.scheme ?? 'HTTP').toUpperCase() === 'HTTPS';
    return new Promise<ProbeResult>((resolve) => {
      const req = (https ? httpsRequest : httpRequest)({
        host, port: port(g.port), path: g.path ?? '/', method: 'GET', timeout: timeoutMs, rejectUnauthorized: false, signal: o.signal,
        headers: { 'user-agent': PROBE_USER_AGENT, accept: '*/*', ...Object.fromEntries((g.httpHeaders ?? []).map((h) => [h.name, h.value])) },
      }, (res) => {
        res.resume();
        const code = res.statusCode ?? 0;
        resolve((code >= 200 && code < 400) || o.anyStatus ? { ok: true } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
      });
      // Go's url.Error: `Get "<url>": <transport error>`
      const url = `${https ? 'https' : 'http'}://${joinHostPort(host, port(g.port))}${g.path ?? '/'}`;
      const timedOut = (): void => resolve({ ok: false, message: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
      req.on('timeout', () => { req.destroy(); timedOut(); });
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (isTimeout(e)) { timedOut(); return; }
        resolve({ ok: false, message: `Get "${url}": ${goTransportError(host, port(g.port), e, { address: req.socket?.localAddress, port: req.socket?.localPort })}` });
      });
      req.end();
    });
  }
  if (probe.grpc) return grpcProbe(podIp || '127.0.0.1', probe.grpc.port, probe.grpc.service ?? '', o.timeoutSeconds || 1);
  const tcp = probe.tcpSocket;
  if (tcp) {
    const host = tcp.host || podIp || '127.0.0.1';
    return new Promise<ProbeResult>((resolve) => {
      const s = connect({ host, port: port(tcp.port), timeout: timeoutMs });
      s.once('connect', () => { s.destroy(); resolve({ ok: true }); });
      s.once('timeout', () => { s.destroy(); resolve({ ok: false, message: `dial tcp ${joinHostPort(host, port(tcp.port))}: i/o timeout` }); });
      s.once('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, message: goDialError(host, port(tcp.port), e) }));
    });
  }
  return { ok: true };
};

