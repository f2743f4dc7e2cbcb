// apiextensions.k8s.io/v1: CustomResourceDefinitions, the kinds users add to the API.
import { ALL_VERBS, type GroupVersion } from '../../types.js';
import { defaulters } from './defaults.js';
import { definitions, X } from './definitions.js';

export { X as APIEXTENSIONS_PREFIX } from './definitions.js';
export * from './types.js';

export const groupVersion: GroupVersion = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resources: [{
    group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions', singular: 'customresourcedefinition', namespaced: false, verbs: ALL_VERBS,
    shortNames: ['crd', 'crds'], categories: ['api-extensions'],
    subresources: [{ name: 'status', group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', verbs: ['get', 'patch', 'update'] }],
    definition: `${X}CustomResourceDefinition`,
  }],
  definitions,
  defaulters,
};
