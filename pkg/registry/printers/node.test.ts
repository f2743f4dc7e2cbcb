// Expectations from upstream's TestPrintNodeStatus, TestPrintNodeRole and the wide node tests.
import { describe, expect, it } from 'vitest';
import { nodePrinter } from './node.js';
import { NOW, obj } from './testing.js';

const node = (fields: Record<string, unknown>) => obj('n1', fields, 86400 * 3);
const status = (fields: Record<string, unknown>) => nodePrinter.cells(node(fields), NOW)[1];
const roles = (labels: Record<string, string>) => nodePrinter.cells(node({ metadata: { labels } }), NOW)[2];

describe('node STATUS', () => {
  it('reads the Ready condition', () => {
    expect(status({ status: { conditions: [{ type: 'Ready', status: 'True' }] } })).toBe('Ready');
    expect(status({ status: { conditions: [{ type: 'Ready', status: 'False' }] } })).toBe('NotReady');
    expect(status({ status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } })).toBe('NotReady');
  });

  it('is Unknown without a Ready condition', () => {
    expect(status({})).toBe('Unknown');
    expect(status({ status: { conditions: [{ type: 'InvalidValue', status: 'True' }] } })).toBe('Unknown');
  });

  it('adds SchedulingDisabled for cordoned nodes', () => {
    expect(status({ spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'True' }] } })).toBe(
      'Ready,SchedulingDisabled',
    );
    expect(status({ spec: { unschedulable: true } })).toBe('Unknown,SchedulingDisabled');
  });
});

describe('node ROLES', () => {
  it('collects node-role.kubernetes.io/<role> and kubernetes.io/role labels, sorted and unique', () => {
    expect(
      roles({
        'node-role.kubernetes.io/worker': '',
        'node-role.kubernetes.io/control-plane': '',
        'node-role.kubernetes.io/': '',
        'kubernetes.io/role': 'worker',
        'kubernetes.io/hostname': 'n1',
      }),
    ).toBe('control-plane,worker');
    expect(roles({ 'kubernetes.io/role': 'node' })).toBe('node');
  });

  it('prints <none> without roles', () => {
    expect(roles({})).toBe('<none>');
    expect(roles({ 'kubernetes.io/role': '' })).toBe('<none>');
  });
});

describe('node cells', () => {
  it('fills version and the wide system-info columns', () => {
    const n = node({
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [
          { type: 'Hostname', address: 'n1' },
          { type: 'InternalIP', address: '10.0.0.5' },
          { type: 'ExternalIP', address: '1.2.3.4' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.32.0',
          osImage: 'Ubuntu 24.04',
          kernelVersion: '6.8.0',
          containerRuntimeVersion: 'containerd://1.7.0',
        },
      },
    });
    expect(nodePrinter.cells(n, NOW)).toEqual([
      'n1',
      'Ready',
      '<none>',
      '3d',
      'v1.32.0',
      '10.0.0.5',
      '1.2.3.4',
      'Ubuntu 24.04',
      '6.8.0',
      'containerd://1.7.0',
    ]);
  });

  it('prints <none> for missing addresses and <unknown> for missing system info', () => {
    expect(nodePrinter.cells(node({}), NOW).slice(4)).toEqual(['', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });

  it('has the upstream columns', () => {
    expect(nodePrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Status:0',
      'Roles:0',
      'Age:0',
      'Version:0',
      'Internal-IP:1',
      'External-IP:1',
      'OS-Image:1',
      'Kernel-Version:1',
      'Container-Runtime:1',
    ]);
  });
});
