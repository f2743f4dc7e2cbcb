// The probe manager's workers over a fake clock: a liveness failure at its threshold asks once for the container's
// kill, however many syncs still see it running while it stops (upstream's worker holds until a new container ID).
import { describe, expect, it } from 'vitest';
import { FakeClock, type EventRecorder, type KubeObject } from '../client/index.js';
import { ProbeManager } from './probes.js';
import type { ContainerStatus, Runtime } from './runtime/types.js';

describe('probe workers', () => {
  it('a failed liveness probe has its container killed once: the worker holds, syncs the pod, and answers failedProbe until a new container', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const events: string[] = [];
    const recorder = { event: (_o: unknown, _t: string, reason: string) => { events.push(reason); } } as unknown as EventRecorder;
    const stops: string[] = [];
    const runtime = {
      execSync: () => Promise.resolve({ exitCode: 1, stdout: '', stderr: '', timedOut: false }),
      stopContainer: (id: string) => { stops.push(id); return Promise.resolve(); },
    } as unknown as Runtime;
    const pod = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
      spec: { containers: [{ name: 'c', livenessProbe: { exec: { command: ['sh', '-c', 'exit 1'] }, periodSeconds: 2, failureThreshold: 1 } }] },
    } as KubeObject;
    const changes: string[] = [];
    const probes = new ProbeManager({ runtime, clock, recorder, onChange: (uid) => changes.push(uid), getPod: () => ({ pod, podIp: '10.244.0.5' }) });
    const running = (id: string): ContainerStatus => ({ id, sandboxId: 's', podUid: 'u1', name: 'c', attempt: 0, state: 'running', image: 'busybox', imageRef: 'busybox', createdAt: clock.now(), startedAt: clock.now() });

    const first = running('c1');
    probes.sync('u1', pod, [first]);
    expect(probes.failedProbe('c1')).toBeUndefined();
    await clock.advance(100);
    // the kill is the pod sync's (its Killing event, preStop hook and grace period): the prober only asks for it
    expect(events).toEqual(['Unhealthy']);
    expect(changes).toEqual(['u1']);
    expect(probes.failedProbe('c1')).toBe('liveness');
    for (let i = 0; i < 5; i++) {
      probes.sync('u1', pod, [first]); // still running while it stops
      await clock.advance(2000);
    }
    expect(events).toEqual(['Unhealthy']);
    expect(changes).toEqual(['u1']);
    expect(stops).toEqual([]);

    // the restarted container is probed afresh
    probes.sync('u1', pod, [{ ...first, state: 'exited' }, running('c2')]);
    expect(probes.failedProbe('c1')).toBeUndefined();
    await clock.advance(100);
    expect(events).toEqual(['Unhealthy', 'Unhealthy']);
    expect(probes.failedProbe('c2')).toBe('liveness');
    probes.close();
  });

  it('a runtime error (an exec racing the container\'s exit) is "probe errored", neither a failure nor a success', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const events: string[] = [];
    const recorder = { event: (_o: unknown, _t: string, reason: string, message: string) => { events.push(`${reason}: ${message}`); } } as unknown as EventRecorder;
    const error = 'rpc error: code = Unknown desc = failed to exec in container: container is in CONTAINER_EXITED state';
    const runtime = { execSync: () => Promise.reject(new Error(error)), stopContainer: () => Promise.resolve() } as unknown as Runtime;
    const pod = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
      spec: { containers: [{ name: 'c', livenessProbe: { exec: { command: ['true'] }, periodSeconds: 1, failureThreshold: 1 } }] },
    } as KubeObject;
    const probes = new ProbeManager({ runtime, clock, recorder, onChange: () => undefined, getPod: () => ({ pod }) });
    probes.sync('u1', pod, [{ id: 'c1', sandboxId: 's', podUid: 'u1', name: 'c', attempt: 0, state: 'running', image: 'busybox', imageRef: 'busybox', createdAt: clock.now(), startedAt: clock.now() }]);
    await clock.advance(1100);
    expect(events).toEqual([`Unhealthy: Liveness probe errored: ${error}`, `Unhealthy: Liveness probe errored: ${error}`]);
    probes.close();
  });
  it("an exec probe's command has $(VAR) expanded from the env as written: valueFrom variables empty, unknown ones kept", async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const commands: string[][] = [];
    const runtime = {
      execSync: (_id: string, command: string[]) => { commands.push(command); return Promise.resolve({ exitCode: 0, stdout: '', stderr: '', timedOut: false }); },
      stopContainer: () => Promise.resolve(),
    } as unknown as Runtime;
    const recorder = { event: () => undefined } as unknown as EventRecorder;
    const env = [{ name: 'FILE', value: '/tmp/ready' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }];
    const pod = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
      spec: { containers: [{ name: 'c', env, readinessProbe: { exec: { command: ['cat', '$(FILE)', '[$(POD)]', '$(NONE)', '$$(FILE)'] }, periodSeconds: 1 } }] },
    } as KubeObject;
    const probes = new ProbeManager({ runtime, clock, recorder, onChange: () => undefined, getPod: () => ({ pod }) });
    probes.sync('u1', pod, [{ id: 'c1', sandboxId: 's', podUid: 'u1', name: 'c', attempt: 0, state: 'running', image: 'busybox', imageRef: 'busybox', createdAt: clock.now(), startedAt: clock.now() }]);
    await clock.advance(100);
    expect(commands[0]).toEqual(['cat', '/tmp/ready', '[]', '$(NONE)', '$(FILE)']);
    probes.close();
  });
});
