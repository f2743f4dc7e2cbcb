// Expectations from upstream's printers_test.go (TestPrintPod, TestPrintPodWithRestartableInitContainer,
// TestPrintPodwide), with the pods written as v1 JSON.
import { describe, expect, it } from 'vitest';
import { podPrinter, podTemplatePrinter } from './pod.js';
import { NOW, ago, obj } from './testing.js';

const running = { running: {} };
const containers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image: 'img' }));
const pod = (spec: Record<string, unknown>, status: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  obj('p', { spec, status, metadata });
const summary = (p: ReturnType<typeof pod>) => podPrinter.cells(p, NOW).slice(1, 4);

describe('pod READY, STATUS, RESTARTS', () => {
  it('counts ready running containers and sums restarts', () => {
    const p = pod(
      { containers: containers(2) },
      { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] },
    );
    expect(summary(p)).toEqual(['1/2', 'podPhase', '6']);
  });

  it('a waiting container reason overrides the phase; the first container wins', () => {
    const p = pod(
      { containers: containers(2) },
      {
        phase: 'podPhase',
        containerStatuses: [
          { restartCount: 3, state: { waiting: { reason: 'ContainerWaitingReason' } } },
          { restartCount: 3, state: { terminated: { reason: 'ContainerTerminatedReason', exitCode: 0 } } },
        ],
      },
    );
    expect(summary(p)).toEqual(['0/2', 'ContainerWaitingReason', '6']);
  });

  it('status.reason wins over the phase', () => {
    const p = pod({ containers: containers(1) }, { phase: 'Running', reason: 'Evicted' });
    expect(summary(p)).toEqual(['0/1', 'Evicted', '0']);
  });

  it('"Completed" turns back into NotReady or Running while a container still runs', () => {
    const statuses = [
      { ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
      { ready: true, restartCount: 3, state: running },
    ];
    const notReady = pod({ containers: containers(2) }, { phase: 'Running', containerStatuses: statuses });
    expect(summary(notReady)).toEqual(['1/2', 'NotReady', '6']);
    const ready = pod(
      { containers: containers(2) },
      { phase: 'Running', containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'True' }] },
    );
    expect(summary(ready)).toEqual(['1/2', 'Running', '6']);
  });

  it('terminated containers without a reason print their signal or exit code', () => {
    const status = (terminated: Record<string, unknown>) => ({ phase: 'Failed', containerStatuses: [{ state: { terminated } }] });
    expect(summary(pod({ containers: containers(1) }, status({ exitCode: 2 })))[1]).toBe('ExitCode:2');
    expect(summary(pod({ containers: containers(1) }, status({ exitCode: 137, signal: 9 })))[1]).toBe('Signal:9');
  });

  it('shows init progress and the init restarts with the last restart time', () => {
    const p = pod(
      { initContainers: containers(2), containers: containers(1) },
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'c0', restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: { terminated: { finishedAt: ago(120) } } },
          { name: 'c1', restartCount: 3, state: running, lastState: { terminated: { finishedAt: ago(10) } } },
        ],
        containerStatuses: [{ state: { waiting: {} } }],
      },
    );
    expect(summary(p)).toEqual(['0/1', 'Init:1/2', '5 (10s ago)']);
  });

  it('prints Init:<reason> for failing init containers', () => {
    const init = (state: Record<string, unknown>) =>
      pod({ initContainers: containers(1), containers: containers(1) }, { phase: 'Pending', initContainerStatuses: [{ name: 'c0', state }] });
    expect(summary(init({ waiting: { reason: 'CrashLoopBackOff' } }))[1]).toBe('Init:CrashLoopBackOff');
    expect(summary(init({ waiting: { reason: 'PodInitializing' } }))[1]).toBe('Init:0/1');
    expect(summary(init({ terminated: { exitCode: 1, reason: 'Error' } }))[1]).toBe('Init:Error');
    expect(summary(init({ terminated: { exitCode: 3 } }))[1]).toBe('Init:ExitCode:3');
    expect(summary(init({ terminated: { exitCode: 3, signal: 15 } }))[1]).toBe('Init:Signal:15');
  });

  it('after init, only main containers count towards restarts', () => {
    const p = pod(
      { initContainers: containers(1), containers: containers(1) },
      {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'c0', restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: { terminated: { finishedAt: ago(120) } } },
        ],
        containerStatuses: [{ restartCount: 4, state: running, lastState: { terminated: { finishedAt: ago(20) } } }],
      },
    );
    expect(summary(p)).toEqual(['0/1', 'Running', '4 (20s ago)']);
  });

  it('the most recent restart is reported across containers', () => {
    const p = pod(
      { containers: containers(2) },
      {
        phase: 'Running',
        containerStatuses: [
          { ready: true, restartCount: 6, state: running, lastState: { terminated: { finishedAt: ago(5 * 86400) } } },
          { ready: true, restartCount: 3, state: running, lastState: { terminated: { finishedAt: ago(20 * 86400) } } },
        ],
      },
    );
    expect(summary(p)).toEqual(['2/2', 'Running', '9 (5d ago)']);
  });

  it('shows SchedulingGated', () => {
    const p = pod(
      { containers: containers(2) },
      { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
    );
    expect(summary(p)).toEqual(['0/2', 'SchedulingGated', '0']);
  });

  it('Terminating while deleting a pod that has not finished, Unknown when its node is lost', () => {
    const deleting = { deletionTimestamp: ago(10) };
    const completed = { containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] };
    expect(summary(pod({ containers: containers(1) }, { phase: 'Running', containerStatuses: [{ state: running }] }, deleting))[1]).toBe('Terminating');
    expect(summary(pod({ containers: containers(1) }, { phase: 'Pending' }, deleting))[1]).toBe('Terminating');
    expect(summary(pod({ containers: containers(1) }, { phase: 'Succeeded', ...completed }, deleting))[1]).toBe('Completed');
    expect(summary(pod({ containers: containers(1) }, { phase: 'Running', reason: 'NodeLost' }, deleting))[1]).toBe('Unknown');
  });

  it('marks finished pods with a Completed row condition', () => {
    expect(podPrinter.conditions?.(pod({}, { phase: 'Succeeded' }))).toEqual([
      { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
    ]);
    expect(podPrinter.conditions?.(pod({}, { phase: 'Failed' }))?.[0]?.reason).toBe('Failed');
    expect(podPrinter.conditions?.(pod({}, { phase: 'Running' }))).toBeUndefined();
  });
});

describe('pods with sidecar (restartable init) containers', () => {
  const spec = {
    initContainers: [
      { name: 'sidecar-1', restartPolicy: 'Always' },
      { name: 'sidecar-2', restartPolicy: 'Always' },
    ],
    containers: containers(1),
  };

  it('counts sidecars as containers and waits for them to start', () => {
    const p = pod(spec, {
      phase: 'Pending',
      initContainerStatuses: [
        { name: 'sidecar-1', restartCount: 3, started: true, state: running, lastState: { terminated: { finishedAt: ago(10) } } },
        { name: 'sidecar-2', started: false, state: running },
      ],
      containerStatuses: [{ state: { waiting: {} } }],
      conditions: [{ type: 'Initialized', status: 'False' }],
    });
    expect(summary(p)).toEqual(['0/3', 'Init:1/2', '3 (10s ago)']);
  });

  it('adds sidecar restarts to the main containers once initialized', () => {
    const p = pod(spec, {
      phase: 'Running',
      initContainerStatuses: [
        { name: 'sidecar-1', restartCount: 3, started: true, state: running, lastState: { terminated: { finishedAt: ago(10) } } },
        { name: 'sidecar-2', started: true, state: running },
      ],
      containerStatuses: [{ ready: true, restartCount: 4, state: running, lastState: { terminated: { finishedAt: ago(20) } } }],
      conditions: [{ type: 'Initialized', status: 'True' }],
    });
    expect(summary(p)).toEqual(['1/3', 'Running', '7 (10s ago)']);
  });

  it('ignores statuses of containers the spec does not have', () => {
    const p = pod(
      { initContainers: [{ name: 'init1' }, { name: 'sidecar1', restartPolicy: 'Always' }], containers: containers(1) },
      { phase: 'Running', initContainerStatuses: [{ name: 'initinvalid' }, { name: 'init1' }, { name: 'sidecar1' }] },
    );
    expect(summary(p)).toEqual(['0/2', 'Init:0/2', '0']);
  });
});

describe('pod columns', () => {
  it('has upstream names, types and priorities', () => {
    expect(podPrinter.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Status', 'string', 0],
      ['Restarts', 'string', 0],
      ['Age', 'string', 0],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ]);
    expect(podPrinter.columns[0]?.format).toBe('name');
  });

  it('fills the wide cells', () => {
    const p = obj(
      'test1',
      {
        spec: {
          containers: containers(2),
          nodeName: 'node-a',
          readinessGates: [{ conditionType: 'c1' }, { conditionType: 'c2' }, { conditionType: 'c3' }],
        },
        status: {
          phase: 'podPhase',
          podIPs: [{ ip: '1.1.1.1' }],
          nominatedNodeName: 'node1',
          conditions: [
            { type: 'c1', status: 'False' },
            { type: 'c2', status: 'True' },
          ],
          containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
        },
      },
      3600,
    );
    expect(podPrinter.cells(p, NOW)).toEqual(['test1', '1/2', 'podPhase', '6', '60m', '1.1.1.1', 'node-a', 'node1', '1/3']);
  });

  it('prints <none> for missing wide values and <unknown> without a creation time', () => {
    expect(podPrinter.cells(obj('bare', { spec: { containers: containers(1) }, status: { phase: 'Pending' } }), NOW)).toEqual([
      'bare',
      '0/1',
      'Pending',
      '0',
      '<unknown>',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });
});

describe('pod templates', () => {
  it('lists containers, images and pod labels', () => {
    const t = obj('tmpl', {
      template: {
        metadata: { labels: { b: '2', a: '1' } },
        spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'log', image: 'busybox' }] },
      },
    });
    expect(podTemplatePrinter.cells(t, NOW)).toEqual(['tmpl', 'web,log', 'nginx,busybox', 'a=1,b=2']);
  });
});
