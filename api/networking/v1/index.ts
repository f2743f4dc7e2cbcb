// networking.k8s.io/v1: Ingresses, IngressClasses, NetworkPolicies.
import { ALL_VERBS, type GroupVersion, type ResourceType } from '../../types.js';
import { N } from './common.js';
import { defaulters } from './defaults.js';
import { ingressDefinitions } from './ingress.js';
import { networkPolicyDefinitions } from './networkpolicy.js';

const group = 'networking.k8s.io';
const version = 'v1';
const resource = (kind: string, plural: string, namespaced: boolean, extra: Partial<ResourceType> = {}): ResourceType => ({
  group, version, kind, plural, singular: kind.toLowerCase(), namespaced, verbs: ALL_VERBS, definition: N + kind, ...extra,
});

export const groupVersion: GroupVersion = {
  group,
  version,
  resources: [
    resource('IngressClass', 'ingressclasses', false),
    resource('Ingress', 'ingresses', true, {
      shortNames: ['ing'],
      subresources: [{ name: 'status', group, version, kind: 'Ingress', verbs: ['get', 'patch', 'update'] }],
    }),
    resource('NetworkPolicy', 'networkpolicies', true, { shortNames: ['netpol'] }),
  ],
  definitions: { ...ingressDefinitions, ...networkPolicyDefinitions },
  defaulters,
};
