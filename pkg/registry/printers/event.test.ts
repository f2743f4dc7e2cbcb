// Expectations from upstream's TestPrintEvent and TestPrintEventsResultSorted, for both event APIs.
import { describe, expect, it } from 'vitest';
import { eventPrinter, eventsV1Printer } from './event.js';
import { NOW, ago, obj } from './testing.js';

describe('core/v1 events', () => {
  const event = (fields: Record<string, unknown>) =>
    obj('event1', {
      source: { component: 'kubelet', host: 'Node1' },
      involvedObject: { kind: 'Deployment', name: 'Deployment Name', fieldPath: 'spec.containers{foo}' },
      reason: 'Event Reason',
      message: ' Message Data \n',
      type: 'Normal',
      ...fields,
    });

  it('prints the standard and wide cells', () => {
    const e = event({ firstTimestamp: ago(3 * 86400), lastTimestamp: ago(2 * 86400), count: 6 });
    expect(eventPrinter.cells(e, NOW)).toEqual([
      '2d',
      'Normal',
      'Event Reason',
      'deployment/Deployment Name',
      'spec.containers{foo}',
      'kubelet, Node1',
      'Message Data',
      '3d',
      6,
      'event1',
    ]);
  });

  it('falls back to eventTime, counts singletons as 1 and uses the series when present', () => {
    const single = eventPrinter.cells(event({ eventTime: ago(3 * 86400) }), NOW);
    expect([single[0], single[7], single[8]]).toEqual(['3d', '3d', 1]);
    const series = eventPrinter.cells(
      event({ eventTime: ago(3 * 86400), series: { count: 2, lastObservedTime: ago(2 * 86400) } }),
      NOW,
    );
    expect([series[0], series[7], series[8]]).toEqual(['2d', '3d', 2]);
    const none = eventPrinter.cells(event({}), NOW);
    expect([none[0], none[7]]).toEqual(['<unknown>', '<unknown>']);
  });

  it('falls back to the reporting controller and instance for the source', () => {
    const e = event({ source: {}, reportingComponent: 'kube-scheduler', reportingInstance: 'sched-1' });
    expect(eventPrinter.cells(e, NOW)[5]).toBe('kube-scheduler, sched-1');
    expect(eventPrinter.cells(event({ source: { component: 'kubelet' } }), NOW)[5]).toBe('kubelet');
  });

  it('prints just the kind for an unnamed object', () => {
    expect(eventPrinter.cells(event({ involvedObject: { kind: 'Node' } }), NOW)[3]).toBe('node');
  });

  it('has the upstream columns, wide ones interleaved', () => {
    expect(eventPrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Last Seen:0',
      'Type:0',
      'Reason:0',
      'Object:0',
      'Subobject:1',
      'Source:1',
      'Message:0',
      'First Seen:1',
      'Count:1',
      'Name:1',
    ]);
    expect(eventPrinter.columns.at(-1)?.format).toBe('name');
  });
});

describe('events.k8s.io/v1 events', () => {
  it('maps the renamed fields onto the same cells', () => {
    const e = obj('event2', {
      apiVersion: 'events.k8s.io/v1',
      eventTime: ago(600),
      series: { count: 4, lastObservedTime: ago(60) },
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-n1',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', name: 'web-1' },
      note: 'Successfully assigned default/web-1 to n1',
      type: 'Normal',
    });
    expect(eventsV1Printer.cells(e, NOW)).toEqual([
      '60s',
      'Normal',
      'Scheduled',
      'pod/web-1',
      '',
      'default-scheduler, default-scheduler-n1',
      'Successfully assigned default/web-1 to n1',
      '10m',
      4,
      'event2',
    ]);
  });

  it('reads the deprecated core fields', () => {
    const e = obj('event3', {
      deprecatedSource: { component: 'kubelet', host: 'n1' },
      deprecatedFirstTimestamp: ago(7200),
      deprecatedLastTimestamp: ago(3600),
      deprecatedCount: 3,
      regarding: { kind: 'Pod', name: 'p', fieldPath: 'spec.containers{app}' },
      note: 'Back-off',
      type: 'Warning',
      reason: 'BackOff',
    });
    expect(eventsV1Printer.cells(e, NOW)).toEqual([
      '60m',
      'Warning',
      'BackOff',
      'pod/p',
      'spec.containers{app}',
      'kubelet, n1',
      'Back-off',
      '120m',
      3,
      'event3',
    ]);
  });
});
