import { describe, expect, it } from 'vitest';
import { computeSubsets, truncateSubsets } from './endpoints.js';

interface PodOpts { ready?: boolean; terminating?: boolean; phase?: string; restartPolicy?: string; ports?: { name: string; containerPort: number }[]; sidecarPorts?: { name: string; containerPort: number }[] }
const pod = (name: string, ip: string, o: PodOpts = {}) => ({
  metadata: { name, namespace: 'ns', uid: `u-${name}`, labels: { app: 'a' }, ...(o.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: {
    nodeName: 'n1', ...(o.restartPolicy ? { restartPolicy: o.restartPolicy } : {}), containers: [{ name: 'c', ports: o.ports }],
    ...(o.sidecarPorts ? { initContainers: [{ name: 'side', restartPolicy: 'Always', ports: o.sidecarPorts }, { name: 'init', ports: [{ name: 'metrics', containerPort: 1 }] }] } : {}),
  },
  status: { phase: o.phase ?? 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
});
const svc = (publish: boolean, ports: Record<string, unknown>[] = [{ port: 80 }]) =>
  ({ metadata: { name: 's', namespace: 'ns' }, spec: { selector: { app: 'a' }, publishNotReadyAddresses: publish, ports } });
const ips = (subsets: { addresses?: { ip: string }[]; notReadyAddresses?: { ip: string }[] }[]) =>
  subsets.map((s) => [(s.addresses ?? []).map((a) => a.ip), (s.notReadyAddresses ?? []).map((a) => a.ip)]);

describe('the endpoints controller\'s subsets', () => {
  it('lists terminating pods only under publishNotReadyAddresses, and then as ready, as upstream', () => {
    const pods = [pod('a', '10.0.0.1', { ready: true }), pod('b', '10.0.0.2'), pod('c', '10.0.0.3', { ready: true, terminating: true })];
    expect(ips(computeSubsets(svc(false), pods))).toEqual([[['10.0.0.1'], ['10.0.0.2']]]);
    expect(ips(computeSubsets(svc(true), pods))).toEqual([[['10.0.0.1', '10.0.0.2', '10.0.0.3'], []]]);
  });

  it('leaves out terminal pods whatever their restartPolicy (ShouldPodBeInEndpoints)', () => {
    const pods = [pod('a', '10.0.0.1', { ready: true }), pod('f', '10.0.0.2', { phase: 'Failed' }), pod('s', '10.0.0.3', { phase: 'Succeeded', restartPolicy: 'Always' })];
    expect(ips(computeSubsets(svc(true), pods))).toEqual([[['10.0.0.1'], []]]);
  });

  it('skips only the ports a pod lacks, repacking ports by the addresses serving them (RepackSubsets)', () => {
    const s = svc(false, [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'metrics', port: 9090, targetPort: 'metrics' }]);
    const both = [{ name: 'http', containerPort: 8080 }, { name: 'metrics', containerPort: 9100 }];
    const pods = [
      pod('a', '10.0.0.1', { ready: true, ports: both }),
      pod('b', '10.0.0.2', { ports: [{ name: 'http', containerPort: 8080 }] }),
      // a sidecar's port counts, a plain init container's does not
      pod('c', '10.0.0.3', { ready: true, ports: [{ name: 'http', containerPort: 8080 }], sidecarPorts: [{ name: 'metrics', containerPort: 9100 }] }),
      pod('d', '10.0.0.4', { ready: true }),
    ];
    expect(computeSubsets(s, pods).map((x) => ({ ports: x.ports!.map((p) => p.name), ips: ips([x])[0] }))).toEqual([
      { ports: ['http'], ips: [['10.0.0.1', '10.0.0.3'], ['10.0.0.2']] },
      { ports: ['metrics'], ips: [['10.0.0.1', '10.0.0.3'], []] },
    ]);
    // the same addresses behind both ports: one subset
    expect(computeSubsets(s, [pods[0]!, pods[2]!]).map((x) => x.ports!.map((p) => `${p.name}:${p.port}`))).toEqual([['http:8080', 'metrics:9100']]);
  });

  it('truncates past 1000 addresses, not-ready ones first, in proportion across subsets (truncateEndpoints)', () => {
    const addrs = (n: number, base: number) => Array.from({ length: n }, (_, i) => ({ ip: `10.${base}.${i >> 8}.${i & 255}`, targetRef: { uid: `${base}-${i}` } }));
    const subsets = [
      { addresses: addrs(600, 1), notReadyAddresses: addrs(300, 2), ports: [{ port: 1, protocol: 'TCP' }] },
      { addresses: addrs(200, 3), notReadyAddresses: addrs(100, 4), ports: [{ port: 2, protocol: 'TCP' }] },
    ];
    expect(truncateSubsets(subsets)).toBe(true);
    // 800 ready kept, 200 not-ready places shared 300:100 → 150 and 50
    expect(subsets.map((s) => [s.addresses.length, s.notReadyAddresses.length])).toEqual([[600, 150], [200, 50]]);
    expect(subsets[0]!.notReadyAddresses[0]!.ip).toBe('10.2.0.0');

    const ready = [{ addresses: addrs(700, 1), notReadyAddresses: addrs(5, 2) }, { addresses: addrs(701, 3) }] as { addresses?: ReturnType<typeof addrs>; notReadyAddresses?: ReturnType<typeof addrs> }[];
    expect(truncateSubsets(ready)).toBe(true);
    // past 1000 ready: only ready ones, ceil(700/1401*1000) = 500, then what is left
    expect(ready.map((s) => [s.addresses?.length, s.notReadyAddresses])).toEqual([[500, undefined], [500, undefined]]);
    expect(truncateSubsets([{ addresses: addrs(1000, 1) }])).toBe(false);
  });
});
