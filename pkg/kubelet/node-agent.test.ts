// The node events a kubelet records as it starts, as upstream's initialNode (its status setters on a Node of no
// conditions) and tryUpdateNodeStatus (transitions from the Node as the apiserver has it).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock, StatusError, type Client, type KubeObject, type Lease } from '../client/index.js';
import { NodeAgent } from './node-agent.js';
import { nodeStatus, type NodeIdentity } from './node-status.js';

const identity: NodeIdentity = { name: 'n1', ip: '192.0.2.1', resources: { cpu: '2', memory: '4Gi', pods: 110 }, runtimeVersion: 'process://0.1.0' };

/** A client of one Node, which exists already when `existing` is given. */
const fakeClient = (existing?: KubeObject): Client => {
  let node = existing;
  return {
    nodes: () => ({
      create: (n: KubeObject) => {
        if (node) return Promise.reject(new StatusError(409, 'AlreadyExists', `nodes "${identity.name}" already exists`));
        node = { ...n, metadata: { ...n.metadata, resourceVersion: '1' } };
        return Promise.resolve(node);
      },
      get: () => Promise.resolve(node!),
      patch: (_name: string, _type: string, body: { status?: Record<string, unknown> }) => {
        node = { ...node!, ...(body.status ? { status: { ...node!.status, ...body.status } } : {}) };
        return Promise.resolve(node);
      },
    }),
  } as unknown as Client;
};

const start = async (client: Client): Promise<string[]> => {
  const events: string[] = [];
  const agent = new NodeAgent({ client, identity, logger: pino({ level: 'silent' }), onEvent: (_t, reason) => { events.push(reason); } });
  if (!(await agent.register())) await agent.updateStatus(true);
  return events;
};

describe('NodeAgent', () => {
  it('a kubelet that starts on a registered, Ready Node records Starting and each pressure condition, not NodeReady', async () => {
    const status = nodeStatus(identity, { ready: true }, undefined, Date.now() - 60_000);
    expect(await start(fakeClient({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', resourceVersion: '5' }, status })))
      .toEqual(['Starting', 'NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']);
  });

  it('NodeReady too when the Node was NotReady (Unknown: the node controller saw the kubelet go)', async () => {
    const status = nodeStatus(identity, { ready: true }, undefined, Date.now() - 60_000);
    const unknown = { ...status, conditions: (status.conditions as { type: string }[]).map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' } : c)) };
    expect(await start(fakeClient({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', resourceVersion: '5' }, status: unknown })))
      .toEqual(['Starting', 'NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
  });

  it('a new Node: each condition once', async () => {
    expect(await start(fakeClient())).toEqual(['Starting', 'NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
  });

  it('renews its Lease with microseconds in renewTime, as the nodelease controller (MicroTime from its clock)', async () => {
    const written: Lease[] = [];
    const client = {
      nodes: () => ({ get: () => Promise.resolve({ metadata: { name: 'n1', uid: 'u1' } }) }),
      leases: () => ({
        get: () => Promise.reject(new StatusError(404, 'NotFound', 'leases "n1" not found')),
        create: (l: Lease) => { written.push(l); return Promise.resolve({ ...l, metadata: { ...l.metadata, resourceVersion: '1' } }); },
        update: (l: Lease) => { written.push(l); return Promise.resolve(l); },
      }),
    } as unknown as Client;
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'), 0.789);
    const agent = new NodeAgent({ client, identity, logger: pino({ level: 'silent' }), clock });
    await agent.renewLease();
    await clock.advance(10_000);
    await agent.renewLease();
    expect(written.map((l) => l.spec?.renewTime)).toEqual(['2026-01-01T00:00:00.000789Z', '2026-01-01T00:00:10.000789Z']);
  });
});
