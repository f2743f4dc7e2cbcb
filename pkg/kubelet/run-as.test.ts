import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { containerUser } from './run-as.js';

const pod = (securityContext: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { securityContext } });
const nonRoot = { uid: 65532, gid: 65532 };

describe('containerUser (verifyRunAsNonRoot with the image\'s user)', () => {
  it('refuses runAsNonRoot for an image of root (none named), accepts it for an image of a non-root user', () => {
    expect(() => containerUser(pod({ runAsNonRoot: true }), { name: 'c' }, 'p_ns(u)'))
      .toThrow('container has runAsNonRoot and image will run as root (pod: "p_ns(u)", container: c)');
    expect(containerUser(pod({ runAsNonRoot: true }), { name: 'c' }, 'p_ns(u)', nonRoot)).toEqual({ uid: 65532, gid: 65532, groups: [] });
  });

  it('refuses runAsUser 0 with runAsNonRoot whatever the image', () => {
    expect(() => containerUser(pod(), { name: 'c', securityContext: { runAsNonRoot: true, runAsUser: 0 } }, 'p', nonRoot))
      .toThrow('container\'s runAsUser breaks non-root policy (pod: "p", container: c)');
  });

  it('runs as the image\'s user unless runAsUser / runAsGroup say otherwise', () => {
    expect(containerUser(pod(), { name: 'c' }, 'p')).toBeUndefined();
    expect(containerUser(pod(), { name: 'c' }, 'p', nonRoot)).toEqual({ uid: 65532, gid: 65532, groups: [] });
    expect(containerUser(pod({ runAsUser: 1000 }), { name: 'c' }, 'p', nonRoot)).toEqual({ uid: 1000, gid: 0, groups: [] });
    expect(containerUser(pod({ runAsGroup: 3000, fsGroup: 2000 }), { name: 'c' }, 'p', nonRoot)).toEqual({ uid: 65532, gid: 3000, groups: [2000] });
    expect(containerUser(pod({ runAsGroup: 3000 }), { name: 'c' }, 'p')).toEqual({ uid: 0, gid: 3000, groups: [] });
  });
});
