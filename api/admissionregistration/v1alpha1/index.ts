// admissionregistration.k8s.io/v1alpha1 (Kubernetes 1.7-1.13): InitializerConfiguration, and the
// metadata.initializers field every object carries while the alpha Initializers feature is on. Neither is in the
// static table of api/index.ts: the apiserver adds them only with --feature-gates=Initializers=true.
import type { Definitions } from '../../schema.js';
import { arr, kind, listKind, mapList, obj, ref, str } from '../../schema.js';
import { ALL_VERBS, type Defaulter, type GroupVersion } from '../../types.js';

const A = 'io.k8s.api.admissionregistration.v1alpha1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const GROUP = 'admissionregistration.k8s.io';
const gvk = (k: string) => ({ group: GROUP, version: 'v1alpha1', kind: k });
const strings = (description: string) => arr(str(), description);

export const groupVersion: GroupVersion = {
  group: GROUP,
  version: 'v1alpha1',
  resources: [{
    group: GROUP, version: 'v1alpha1', kind: 'InitializerConfiguration', plural: 'initializerconfigurations',
    singular: 'initializerconfiguration', namespaced: false, verbs: ALL_VERBS, definition: `${A}InitializerConfiguration`,
  }],
  definitions: {
    [`${A}InitializerConfiguration`]: kind(gvk('InitializerConfiguration'), {
      initializers: mapList(ref(`${A}Initializer`), 'name', 'The initializers new objects of the matching resources get, in order.'),
    }, 'Which initializers new objects of which resources must wait for.'),
    [`${A}InitializerConfigurationList`]: listKind(gvk('InitializerConfigurationList'), `${A}InitializerConfiguration`),
    [`${A}Initializer`]: obj({
      name: str('The initializer\'s name, a fully qualified name with at least three segments ("podimage.example.com").'),
      rules: arr(ref(`${A}Rule`), 'The resources the initializer cares about; it applies when any rule matches.'),
    }, 'One initializer and the resources it applies to.', { required: ['name'] }),
    [`${A}Rule`]: obj({
      apiGroups: strings('The API groups ("" is core, "*" all).'),
      apiVersions: strings('The API versions ("*" all).'),
      resources: strings('The resources ("*" all; subresources are not initialized).'),
    }, 'Resources by group, version and name.'),
  },
};

/** ObjectMeta with the alpha initializers field, and the kinds it is made of. */
export function initializerMetaDefinitions(base: Definitions): Definitions {
  const meta = base[`${M}ObjectMeta`]!;
  return {
    [`${M}ObjectMeta`]: {
      ...meta,
      properties: {
        ...meta.properties,
        initializers: ref(`${M}Initializers`, 'Initializers that must act on the object before it is visible (alpha).'),
      },
    },
    [`${M}Initializers`]: obj({
      pending: mapList(ref(`${M}Initializer`), 'name', 'Initializers still to act on the object; only the first may act.'),
      result: ref(`${M}Status`, 'Set when initialization failed; the object is then deleted.'),
    }, 'Initialization state of an object.', { required: ['pending'] }),
    [`${M}Initializer`]: obj({
      name: str('The name of the initializer that will act on the object.'),
    }, 'One pending initializer.', { required: ['name'] }),
  };
}

/**
 * The served API with the Initializers feature on: the v1alpha1 group-version, which also lends the ObjectMeta with
 * initializers (so OpenAPI and `kubectl explain` show the field), and the definitions with that ObjectMeta.
 */
export function withInitializers(api: { groupVersions: GroupVersion[]; definitions: Definitions; defaulters: Record<string, Defaulter> }) {
  const served: GroupVersion = { ...groupVersion, definitions: { ...groupVersion.definitions, ...initializerMetaDefinitions(api.definitions) } };
  return {
    groupVersions: [...api.groupVersions, served],
    definitions: { ...api.definitions, ...served.definitions },
    defaulters: api.defaulters,
  };
}
