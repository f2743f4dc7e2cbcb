// Services under --dry-run=server allocate as upstream's BeginCreate/BeginUpdate do with dryRun: from allocators
// that keep nothing, refusing what a real write would refuse only where upstream's dry-run allocators look.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { create } from '../generic/create.js';
import { patchBuilder } from '../generic/patch.js';
import type { Registry } from '../generic/registry.js';
import { registriesOver, testContext } from '../generic/testing.js';
import { update } from '../generic/update.js';

describe('services with --dry-run=server (service range 10.96.0.0/12)', () => {
  let regs: Awaited<ReturnType<typeof registriesOver>>;
  let services: Registry;
  const real = testContext();
  const dry = testContext({ dryRun: true });

  beforeEach(async () => {
    regs = await registriesOver();
    services = regs.get('', 'v1', 'services')!;
  });
  afterEach(async () => {
    regs.stop();
    await regs.store.close();
  });

  const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });
  const answer = async (p: Promise<{ object: KubeObject }>): Promise<string> =>
    p.then((r) => `ok ${JSON.stringify(r.object.spec)}`, (err: { code: number; message: string }) => `${err.code} ${err.message}`);

  it('answers placeholders: the network address for a cluster IP, node ports counting from 32769; and keeps nothing', async () => {
    const { object } = await create(services, dry, svc('np', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }));
    expect(object.spec).toMatchObject({ clusterIP: '10.96.0.0', clusterIPs: ['10.96.0.0'], ports: [{ nodePort: 32769 }, { nodePort: 32770 }] });
    const lb = await create(services, dry, svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    expect(lb.object.spec).toMatchObject({ ports: [{ nodePort: 32769 }], healthCheckNodePort: 32770 });
    // after a named port, the next one up
    const named = svc('named', { type: 'NodePort', clusterIP: '10.96.5.5', ports: [{ name: 'a', port: 80, nodePort: 30100 }, { name: 'b', port: 81 }] });
    const dryNamed = await create(services, dry, structuredClone(named));
    expect(dryNamed.object.spec.ports.map((p: KubeObject) => p.nodePort)).toEqual([30100, 30101]);
    // what the dry run named is still free
    const stored = await create(services, real, structuredClone(named));
    expect(stored.object.spec).toMatchObject({ clusterIP: '10.96.5.5', ports: [{ nodePort: 30100 }, {}] });
  });

  it('refuses a taken node port and a cluster IP outside the range as a real create does; not a taken cluster IP nor a node port outside the range', async () => {
    const first = await create(services, real, svc('taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    const takenPort = svc('np', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
    const refused = '422 Service "np" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated';
    expect(await answer(create(services, dry, structuredClone(takenPort)))).toBe(refused);
    expect(await answer(create(services, real, structuredClone(takenPort)))).toBe(refused);
    const outside = svc('ip', { clusterIP: '192.168.0.5' });
    const outOfRange = '422 Service "ip" is invalid: spec.clusterIPs: Invalid value: []string{"192.168.0.5"}: failed to allocate IP 192.168.0.5: the provided IP (192.168.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12';
    expect(await answer(create(services, dry, structuredClone(outside)))).toBe(outOfRange);
    expect(await answer(create(services, real, structuredClone(outside)))).toBe(outOfRange);
    // upstream's dry-run IP allocator checks the range alone, and its port operation asks only whether a port is held
    const sameIP = svc('second', { clusterIP: first.object.spec.clusterIP });
    expect(await answer(create(services, dry, structuredClone(sameIP)))).toMatch(/^ok /);
    expect(await answer(create(services, real, structuredClone(sameIP)))).toMatch(/^422 .*provided IP is already allocated$/);
    expect(await answer(create(services, dry, svc('low', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] })))).toMatch(/^ok /);
  });

  it('allocates for a dry-run update and keeps nothing', async () => {
    await create(services, real, svc('taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    await create(services, real, svc('s', {}));
    const patch = (body: unknown): Promise<{ object: KubeObject }> => update(services, dry, patchBuilder(services, dry, 's', 'merge', body, false));
    const toNodePort = await patch({ spec: { type: 'NodePort' } });
    expect(toNodePort.object.spec.ports[0].nodePort).toBe(32769);
    expect(await answer(patch({ spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] } })))
      .toBe('422 Service "s" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    // nothing was taken: a real update gets the port the dry run named
    const named = await update(services, real, patchBuilder(services, real, 's', 'merge', { spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30081 }] } }, false));
    expect(named.object.spec.ports[0].nodePort).toBe(30081);
    const external = await create(services, real, svc('ext', { type: 'ExternalName', externalName: 'db.example.com', ports: [] }));
    expect(external.object.spec.clusterIP).toBeUndefined();
    const toClusterIP = await update(services, dry, patchBuilder(services, dry, 'ext', 'merge', { spec: { type: 'ClusterIP', externalName: null, ports: [{ port: 80 }] } }, false));
    expect(toClusterIP.object.spec).toMatchObject({ clusterIP: '10.96.0.0', clusterIPs: ['10.96.0.0'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
  });
});
