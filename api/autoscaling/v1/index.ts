// autoscaling/v1: only the Scale kind, spoken by the scale subresources of apps workloads.
import { int32, kind, obj, ref, str } from '../../schema.js';
import type { GroupVersion } from '../../types.js';

const S = 'io.k8s.api.autoscaling.v1.';

export const groupVersion: GroupVersion = {
  group: 'autoscaling',
  version: 'v1',
  resources: [],
  definitions: {
    [`${S}Scale`]: kind({ group: 'autoscaling', version: 'v1', kind: 'Scale' }, {
      spec: ref(`${S}ScaleSpec`, 'Desired scale of the resource.'),
      status: ref(`${S}ScaleStatus`, 'Current scale of the resource.'),
    }, 'Scale of a scalable resource.'),
    [`${S}ScaleSpec`]: obj({
      replicas: int32('Desired number of instances.'),
    }, 'Desired scale.'),
    [`${S}ScaleStatus`]: obj({
      replicas: int32('Observed number of instances.', { default: 0 }),
      selector: str('Label query over the pods counted, in string form.'),
    }, 'Observed scale.', { required: ['replicas'] }),
  },
};
