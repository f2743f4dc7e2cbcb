// The fake runtime's pod addresses: from the node's podCIDR once it has one (the fallback range before), unique,
// and free again when the sandbox stops.
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fake.js';

const sandbox = (uid: string) => ({ name: uid, namespace: 'ns', uid, attempt: 0, hostname: uid, hostNetwork: false });

describe('FakeRuntime pod IPs', () => {
  it('come from the podCIDR, round the range, and are released when the sandbox stops', async () => {
    let podCidr: string | undefined;
    const rt = new FakeRuntime({ podCidr: () => podCidr, fallbackCidr: '10.250.0.0/24' });
    const ipOf = (id: string): string => rt.podSandboxStatus(id)!.ip;
    expect(ipOf(await rt.runPodSandbox(sandbox('early')))).toBe('10.250.0.2');
    podCidr = '10.244.5.0/29'; // room for five pods: .2 to .6 (.1 is the gateway, .7 the broadcast address)
    const ids = [];
    for (const uid of ['a', 'b', 'c', 'd', 'e']) ids.push(await rt.runPodSandbox(sandbox(uid)));
    expect(ids.map(ipOf)).toEqual(['10.244.5.2', '10.244.5.3', '10.244.5.4', '10.244.5.5', '10.244.5.6']);
    await expect(rt.runPodSandbox(sandbox('f'))).rejects.toThrow('no IP addresses available in range set: 10.244.5.2-10.244.5.6');
    await rt.stopPodSandbox(ids[1]!);
    expect(ipOf(ids[1]!)).toBe('10.244.5.3'); // a stopped sandbox still reports the address it had
    expect(ipOf(await rt.runPodSandbox(sandbox('f')))).toBe('10.244.5.3');
    await rt.removePodSandbox(ids[3]!);
    await rt.removePodSandbox(ids[0]!);
    expect(ipOf(await rt.runPodSandbox(sandbox('g')))).toBe('10.244.5.5'); // round the range from the last one given
  });
});
