// The alpha Initializers feature at start-up: on with --feature-gates=Initializers=true or, as upstream's plugin
// turned its own gate on, with --enable-admission-plugins=Initializers. On, it serves
// admissionregistration.k8s.io/v1alpha1 and ObjectMeta.initializers and runs the Initializers admission plugin;
// off, the served API and the admission chain are exactly those of the static table.
import { allDefaulters, allDefinitions, builtinGroupVersions } from '../../api/index.js';
import { withInitializers } from '../../api/admissionregistration/v1alpha1/index.js';
import type { ApiServerConfig } from './config.js';

const BUILTIN = { groupVersions: builtinGroupVersions, definitions: allDefinitions, defaulters: allDefaulters };

export function initializersFeature(config: Pick<ApiServerConfig, 'featureGates' | 'enableAdmissionPlugins' | 'disableAdmissionPlugins'>) {
  const on = config.featureGates.Initializers === true || config.enableAdmissionPlugins.includes('Initializers');
  const plugin = on && !config.enableAdmissionPlugins.includes('Initializers') && !config.disableAdmissionPlugins.includes('Initializers');
  return {
    on,
    api: on ? withInitializers(BUILTIN) : BUILTIN,
    enableAdmissionPlugins: plugin ? [...config.enableAdmissionPlugins, 'Initializers'] : config.enableAdmissionPlugins,
  };
}
