// coordination.k8s.io/v1: Leases (leader election, node heartbeats).
import { int32, kind, listKind, obj, ref, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const C = 'io.k8s.api.coordination.v1.';
const gvk = (k: string) => ({ group: 'coordination.k8s.io', version: 'v1', kind: k });
const microTime = (description: string) => ref('io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', description);

export const groupVersion: GroupVersion = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resources: [{
    group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', singular: 'lease', namespaced: true,
    verbs: ALL_VERBS, definition: `${C}Lease`,
  }],
  definitions: {
    [`${C}Lease`]: kind(gvk('Lease'), { spec: ref(`${C}LeaseSpec`, 'Specification of the Lease.') }, 'A lease held by one holder at a time.'),
    [`${C}LeaseList`]: listKind(gvk('LeaseList'), `${C}Lease`),
    [`${C}LeaseSpec`]: obj({
      acquireTime: microTime('When the current holder acquired the lease.'),
      holderIdentity: str('Identity of the current holder.'),
      leaseDurationSeconds: int32('Seconds candidates wait after renewTime before taking the lease over.'),
      leaseTransitions: int32('Number of times the lease changed holders.'),
      preferredHolder: str('Holder the lease should be handed to (coordinated leader election).'),
      renewTime: microTime('When the current holder last renewed the lease.'),
      strategy: str('Strategy for picking the leader in coordinated leader election.'),
    }, 'Desired state of a Lease.'),
  },
};
