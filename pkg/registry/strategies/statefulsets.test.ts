// A StatefulSet through the generic create and update: the MaxUnavailableStatefulSet alpha's field (off in 1.32)
// is dropped as upstream's dropStatefulSetDisabledFields drops it (with the gate on it is kept:
// test/integration/workloads-statefulset.test.ts).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { create } from '../generic/create.js';
import { patchBuilder } from '../generic/patch.js';
import { testContext, withRegistries } from '../generic/testing.js';
import { update } from '../generic/update.js';

const statefulSet = (rollingUpdate: KubeObject): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'w' } }, serviceName: 'web', updateStrategy: { type: 'RollingUpdate', rollingUpdate },
    template: { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

describe('StatefulSet updateStrategy.rollingUpdate.maxUnavailable', () => {
  it('is dropped on create and on an update of a StatefulSet stored without it', async () => {
    await withRegistries(async (regs) => {
      const sets = regs.get('apps', 'v1', 'statefulsets')!;
      const ctx = testContext({ fieldValidation: 'Ignore' });
      const created = await create(sets, ctx, statefulSet({ maxUnavailable: 2, partition: 1 }));
      expect(created.object.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
      const patched = await update(sets, ctx, patchBuilder(sets, ctx, 'web', 'merge', { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: '50%' } } } }, false));
      expect(patched.object.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
    });
  });
});
