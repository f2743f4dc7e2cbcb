// Protobuf field numbers of apiregistration.k8s.io/v1 messages (kube-aggregator), by definition name; see ./index.ts.
import type { ProtoFields } from './types.js';

const A = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';

export const apiregistrationV1: ProtoFields = {
  [`${A}APIService`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${A}APIServiceList`]: { 1: 'metadata', 2: 'items' },
  [`${A}APIServiceSpec`]: {
    1: 'service', 2: 'group', 3: 'version', 4: 'insecureSkipTLSVerify', 5: 'caBundle', 7: 'groupPriorityMinimum*',
    8: 'versionPriority*',
  },
  [`${A}ServiceReference`]: { 1: 'namespace', 2: 'name', 3: 'port*' },
  [`${A}APIServiceStatus`]: { 1: 'conditions' },
  [`${A}APIServiceCondition`]: { 1: 'type*', 2: 'status*', 3: 'lastTransitionTime', 4: 'reason', 5: 'message' },
};
