// Names and field builders shared by the apps/v1 definition files.
import { int32, mapList, obj, ref, str, type Schema } from '../../schema.js';

export const A = 'io.k8s.api.apps.v1.';
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const gvk = (kind: string) => ({ group: 'apps', version: 'v1', kind });

export const selector = (description: string): Schema => ref(`${META}LabelSelector`, description);
export const podTemplate = (description: string, extra: Schema = {}): Schema =>
  ({ ...ref('io.k8s.api.core.v1.PodTemplateSpec', description), ...extra });
export const intOrString = (description: string): Schema => ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString', description);
export const replicas = (description: string): Schema => int32(description, { default: 0 });

/** The condition shape every apps workload reports (Deployment's adds lastUpdateTime). */
export const workloadCondition = (what: string, extraFields: Record<string, Schema> = {}): Schema => obj({
  lastTransitionTime: ref(`${META}Time`, 'When the condition last changed status.'),
  ...extraFields,
  message: str('Human-readable detail of the transition.'),
  reason: str('CamelCase reason of the last transition.'),
  status: str('True, False or Unknown.', { default: '' }),
  type: str('Type of the condition.', { default: '' }),
}, `A condition of a ${what}.`, { required: ['type', 'status'] });

/** status.conditions: merged by type. */
export const conditions = (conditionDefinition: string): Schema =>
  mapList(ref(A + conditionDefinition), 'type', 'Latest observations of the current state.');
