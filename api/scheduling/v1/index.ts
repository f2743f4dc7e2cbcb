// scheduling.k8s.io/v1: PriorityClasses.
import { bool, enumStr, int32, kind, listKind, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const S = 'io.k8s.api.scheduling.v1.';
const gvk = (k: string) => ({ group: 'scheduling.k8s.io', version: 'v1', kind: k });

export const groupVersion: GroupVersion = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  resources: [{
    group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', singular: 'priorityclass',
    namespaced: false, verbs: ALL_VERBS, shortNames: ['pc'], definition: `${S}PriorityClass`,
  }],
  definitions: {
    [`${S}PriorityClass`]: kind(gvk('PriorityClass'), {
      description: str('When this priority class should be used.'),
      globalDefault: bool('Whether pods without a priorityClassName get this class.'),
      preemptionPolicy: enumStr(['Never', 'PreemptLowerPriority'], 'Whether pods of this class may preempt lower-priority pods.'),
      value: int32('The priority value.', { default: 0 }),
    }, 'Maps a priority class name to an integer priority.', { required: ['value'] }),
    [`${S}PriorityClassList`]: listKind(gvk('PriorityClassList'), `${S}PriorityClass`),
  },
  defaulters: {
    [`${S}PriorityClass`]: (o) => {
      o.preemptionPolicy ??= 'PreemptLowerPriority';
    },
  },
};
