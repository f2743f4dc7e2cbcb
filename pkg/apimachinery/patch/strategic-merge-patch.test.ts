import { describe, expect, it } from 'vitest';
import { statusErrorOf } from '../testing/status-error.js';
import { DEPLOYMENT, lookup } from '../testdata/schemas.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const smp = (original: object, patch: unknown) => applyStrategicMergePatch(original as Record<string, any>, patch, lookup, DEPLOYMENT);

const live = () => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['a/x', 'b/y'] },
  spec: {
    replicas: 1,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'app', image: 'nginx:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 80, protocol: 'TCP' }], args: ['x', 'y'] },
          { name: 'side', image: 'busybox' },
        ],
        volumes: [{ name: 'data', emptyDir: {} }, { name: 'cfg', configMap: { name: 'c' } }],
        tolerations: [{ key: 'k1' }, { key: 'k2' }],
      },
    },
  },
});
const containers = (o: Record<string, any>) => o.spec.template.spec.containers;

describe('applyStrategicMergePatch', () => {
  it('merges containers by name and env by name (kubectl set image / set env)', () => {
    const out = smp(live(), { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }] }] } } } });
    expect(containers(out)[0].image).toBe('nginx:2');
    // server-only items keep their place before the patched ones they preceded
    expect(containers(out)[0].env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }]);
    expect(containers(out)[1]).toEqual({ name: 'side', image: 'busybox' });
    expect(containers(out)[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('honours $setElementOrder as kubectl apply sends it', () => {
    const out = smp(live(), {
      spec: { template: { spec: {
        '$setElementOrder/containers': [{ name: 'side' }, { name: 'new' }, { name: 'app' }],
        containers: [{ name: 'new', image: 'redis' }],
      } } },
    });
    expect(containers(out).map((c: { name: string }) => c.name)).toEqual(['side', 'new', 'app']);
    expect(containers(out)[1]).toEqual({ name: 'new', image: 'redis' });
  });

  it('orders env as $setElementOrder/env says and deletes with $patch: delete', () => {
    const out = smp(live(), { spec: { template: { spec: {
      '$setElementOrder/containers': [{ name: 'app' }, { name: 'side' }],
      containers: [{ name: 'app', '$setElementOrder/env': [{ name: 'B' }, { name: 'A' }], env: [{ name: 'B', value: '9' }] }, { name: 'side', $patch: 'delete' }],
    } } } });
    expect(containers(out)).toHaveLength(1);
    expect(containers(out)[0].env).toEqual([{ name: 'B', value: '9' }, { name: 'A', value: '1' }]);
  });

  it('adds a new container first when no order is given, as upstream does', () => {
    const out = smp(live(), { spec: { template: { spec: { containers: [{ name: 'extra', image: 'x' }] } } } });
    expect(containers(out).map((c: { name: string }) => c.name)).toEqual(['extra', 'app', 'side']);
  });

  it('merges ports by containerPort and deletes fields with null', () => {
    const out = smp(live(), { metadata: { labels: { app: null, tier: 'fe' } }, spec: { template: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }], args: null }] } } } });
    expect(out.metadata.labels).toEqual({ tier: 'fe' });
    expect(containers(out)[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }]);
    expect('args' in containers(out)[0]).toBe(false);
  });

  it('replaces atomic lists and maps whole', () => {
    const out = smp(live(), { spec: { template: { spec: { tolerations: [{ key: 'k3' }], containers: [{ name: 'app', args: ['z'] }] } } } });
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'k3' }]);
    expect(containers(out)[0].args).toEqual(['z']);
  });

  it('unions primitive merge lists and deletes with $deleteFromPrimitiveList', () => {
    const out = smp(live(), { metadata: { finalizers: ['c/z', 'a/x'], '$deleteFromPrimitiveList/finalizers': ['b/y'] } });
    expect(out.metadata.finalizers).toEqual(['c/z', 'a/x']);
    const none = smp({ metadata: {} }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b/y'] } });
    expect(none.metadata).toEqual({});
  });

  it('reorders and deletes primitive list items as kubectl apply sends them', () => {
    const out = smp({ metadata: { finalizers: ['a/a', 'b/b', 'c/c'] } }, {
      metadata: { '$setElementOrder/finalizers': ['c/c', 'a/a'], '$deleteFromPrimitiveList/finalizers': ['b/b'] },
    });
    expect(out.metadata.finalizers).toEqual(['c/c', 'a/a']);
  });

  it('applies $retainKeys to a retainKeys field (kubectl apply switching strategy type)', () => {
    const out = smp(live(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    expect(statusErrorOf(() => smp(live(), { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 1 } } } })).message)
      .toBe('invalid patch format of retainKeys');
  });

  it('supports $patch: replace on maps and lists and $patch: delete on maps', () => {
    const out = smp(live(), { spec: { template: { spec: { volumes: [{ name: 'only', emptyDir: {} }, { $patch: 'replace' }] } }, strategy: { $patch: 'delete' } }, metadata: { labels: { $patch: 'replace', x: 'y' } } });
    expect(out.spec.template.spec.volumes).toEqual([{ name: 'only', emptyDir: {} }]);
    expect(out.spec.strategy).toEqual({});
    expect(out.metadata.labels).toEqual({ x: 'y' });
  });

  it('merges volumes by name', () => {
    const out = smp(live(), { spec: { template: { spec: { volumes: [{ name: 'cfg', configMap: { name: 'other' } }] } } } });
    expect(out.spec.template.spec.volumes).toEqual([{ name: 'data', emptyDir: {} }, { name: 'cfg', configMap: { name: 'other' } }]);
  });

  it('copies new subtrees without directives', () => {
    const out = smp({ metadata: { name: 'x' } }, { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'a' }, { name: 'gone', $patch: 'delete' }] } } } });
    expect(out.spec).toEqual({ template: { spec: { containers: [{ name: 'a' }] } } });
  });

  it('does not mutate its inputs', () => {
    const original = live();
    const patch = { spec: { template: { spec: { containers: [{ name: 'app', image: 'i' }] } } } };
    smp(original, patch);
    expect(original).toEqual(live());
    expect(patch.spec.template.spec.containers).toEqual([{ name: 'app', image: 'i' }]);
  });

  it('reports malformed patches with upstream messages, as 400 where upstream ends in a 500', () => {
    expect(statusErrorOf(() => smp(live(), { spec: { template: { spec: { containers: [{ image: 'x' }] } } } })).code).toBe(400);
    expect(statusErrorOf(() => smp(live(), { spec: { template: { spec: { containers: [{ image: 'x' }] } } } })).message)
      .toBe('map: map[image:x] does not contain declared merge key: name');
    expect(statusErrorOf(() => smp(live(), { metadata: { '$deleteFromPrimitiveList/finalizers': 'a/x' } })).code).toBe(400);
    expect(statusErrorOf(() => smp(live(), { metadata: { labels: { $patch: 'bogus' } } })).message).toMatch(/^Unknown patch type: bogus in map/);
    expect(statusErrorOf(() => smp(live(), { metadata: { finalizers: [['x']] } })).message).toMatch(/^list element types are not identical/);
    expect(statusErrorOf(() => smp({ metadata: { finalizers: [] } }, { metadata: { finalizers: [['x']] } })).code).toBe(422);
    expect(statusErrorOf(() => smp(live(), [])).code).toBe(400);
  });
});
