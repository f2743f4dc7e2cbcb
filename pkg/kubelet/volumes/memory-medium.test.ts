import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../client/index.js';
import { memoryMediumSize, podMemoryLimit } from './memory-medium.js';

const Mi = 1024 ** 2;
const pod = (containers: unknown[], initContainers: unknown[] = []): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers, initContainers } });
const limited = (memory: string, restartPolicy?: string) => ({ resources: { limits: { memory } }, ...(restartPolicy ? { restartPolicy } : {}) });

describe('memory-backed emptyDir size', () => {
  it('is the pod\'s memory limit only when every container declares one: the sum with sidecars, or a larger init container\'s', () => {
    expect(podMemoryLimit(pod([limited('64Mi'), limited('32Mi')]))).toBe(96 * Mi);
    expect(podMemoryLimit(pod([limited('64Mi'), {}]))).toBeUndefined();
    expect(podMemoryLimit(pod([limited('64Mi')], [limited('16Mi', 'Always'), limited('128Mi')]))).toBe(128 * Mi);
    expect(podMemoryLimit(pod([limited('64Mi')], [limited('16Mi', 'Always'), limited('32Mi')]))).toBe(80 * Mi);
  });

  it('is the least of the node\'s allocatable memory, the pod\'s limit and the sizeLimit (calculateEmptyDirMemorySize)', () => {
    expect(memoryMediumSize(pod([{}]), undefined, '1Gi')).toBe(1024 * Mi);
    expect(memoryMediumSize(pod([limited('64Mi')]), undefined, '1Gi')).toBe(64 * Mi);
    expect(memoryMediumSize(pod([limited('64Mi')]), '8Mi', '1Gi')).toBe(8 * Mi);
    expect(memoryMediumSize(pod([limited('64Mi')]), '128Mi', '1Gi')).toBe(64 * Mi);
    expect(memoryMediumSize(pod([limited('4Gi')]), undefined, '1Gi')).toBe(1024 * Mi);
    expect(memoryMediumSize(pod([{}]), '0', '1Gi')).toBe(1024 * Mi);
  });
});
