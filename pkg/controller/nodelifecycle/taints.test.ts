import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { StatusError } from '../../client/index.js';
import { updateNodeTaints, type Taint } from './taints.js';

const node = (rv: string, taints: Taint[]): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', resourceVersion: rv }, spec: { taints } });
const conflict = (): StatusError => new StatusError(409, 'Conflict', 'Operation cannot be fulfilled on nodes "n1": the object has been modified; please apply your changes to the latest version and try again');

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const addUnreachable = (taints: Taint[]): Taint[] | undefined => (taints.some((t) => t.key === unreachable.key && t.effect === 'NoExecute') ? undefined : [...taints, unreachable]);

describe('updateNodeTaints (upstream AddOrUpdateTaintOnNode)', () => {
  it('retries a conflict at once on the node read again, keeping what the other writer added', async () => {
    const fresh = node('2', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
    const written: KubeObject[] = [];
    const sleeps: number[] = [];
    await updateNodeTaints({
      get: async () => fresh,
      update: async (n) => { written.push(n); if (n.metadata!.resourceVersion === '1') throw conflict(); return n; },
    }, node('1', []), addUnreachable, async (ms) => { sleeps.push(ms); });
    expect(written.map((n) => [n.metadata!.resourceVersion, n.spec!.taints])).toEqual([
      ['1', [unreachable]],
      ['2', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, unreachable]],
    ]);
    expect(sleeps).toEqual([100]);
  });

  it('writes nothing when the node read again already has the taint, and gives up after five conflicts', async () => {
    let updates = 0;
    await updateNodeTaints({ get: async () => node('2', [unreachable]), update: async () => { updates++; throw conflict(); } }, node('1', []), addUnreachable, async () => undefined);
    expect(updates).toBe(1);
    updates = 0;
    await expect(updateNodeTaints({ get: async () => node('2', []), update: async () => { updates++; throw conflict(); } }, node('1', []), addUnreachable, async () => undefined))
      .rejects.toThrow(/the object has been modified/);
    expect(updates).toBe(5);
  });
});
