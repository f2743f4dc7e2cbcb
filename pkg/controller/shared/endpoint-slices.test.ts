import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { ResourceClient } from '../../client/index.js';
import { writeSlices, type SliceWrite } from './endpoint-slices.js';
import { SliceTracker } from './slice-tracker.js';

/** A client that records each write as `verb name` and answers with the object written. */
const recordingClient = (writes: string[]): ResourceClient => ({
  create: async (o: KubeObject) => { writes.push(`create ${o.metadata!.generateName}`); return { ...o, metadata: { ...o.metadata, name: 'web-new', uid: 'u-new', resourceVersion: '2' } }; },
  update: async (o: KubeObject) => { writes.push(`update ${o.metadata!.name}`); return { ...o, metadata: { ...o.metadata, resourceVersion: '3' } }; },
  delete: async (name: string) => { writes.push(`delete ${name}`); },
}) as unknown as ResourceClient;

const port = (p: number) => [{ name: '', port: p, protocol: 'TCP' }];
const slice = (name: string, p: number): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4', endpoints: [], ports: port(p),
  metadata: { name, namespace: 'default', uid: `u-${name}`, resourceVersion: '1', labels: { 'kubernetes.io/service-name': 'web' } },
});

const write = async (o: Partial<SliceWrite>): Promise<string[]> => {
  const writes: string[] = [];
  await writeSlices({
    client: recordingClient(writes), signal: new AbortController().signal, service: 'web', namespace: 'default',
    labels: { 'kubernetes.io/service-name': 'web' }, owner: { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc', controller: true, blockOwnerDeletion: true },
    ownerDeleting: false, existing: [], wanted: [], tracker: new SliceTracker(), ...o,
  });
  return writes.sort();
};

describe('writing a service\'s EndpointSlices', () => {
  const wanted = [{ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: port(80) }, { addressType: 'IPv4', endpoints: [], ports: port(81) }];

  it('updates the slices that differ and creates the missing ones', async () => {
    expect(await write({ existing: [slice('web-a', 80)], wanted })).toEqual(['create web-', 'update web-a']);
  });

  it('creates none for an owner being deleted (upstream\'s finalize: the garbage collector would race them), but still updates and deletes', async () => {
    expect(await write({ ownerDeleting: true, existing: [slice('web-a', 80), slice('web-b', 90), slice('web-c', 91)], wanted: wanted.slice(0, 1) }))
      .toEqual(['delete web-b', 'delete web-c', 'update web-a']);
    expect(await write({ ownerDeleting: true, existing: [slice('web-a', 80)], wanted })).toEqual(['update web-a']);
  });
});
