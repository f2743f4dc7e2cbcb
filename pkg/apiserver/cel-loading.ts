// The CEL runtime (~70 ms of a start) is loaded when a request first may need it, not at every start: before
// admitting a write to a CRD, a custom resource (its rules) or an admission configuration (its expressions are
// compiled), and before every request once any admission policy or webhook configuration exists (policies and
// match conditions are evaluated in admission). A second after `ready` it is loaded in the background anyway.
import { builtinGroupVersions } from '../../api/index.js';
import type { Admission, AdmissionAttributes } from '../admission/interface.js';
import { celLoaded, loadCel } from '../apimachinery/cel/index.js';
import type { RegistrySet } from '../registry/index.js';

const COMPILING_GROUPS = new Set(['apiextensions.k8s.io', 'admissionregistration.k8s.io']);
const BUILTIN_GROUPS = new Set(builtinGroupVersions.map((gv) => gv.group));
const EVALUATED_IN_ADMISSION = ['validatingadmissionpolicies', 'validatingwebhookconfigurations', 'mutatingwebhookconfigurations'];

/** Whether admitting (and validating) this request may compile or evaluate CEL. */
export const mayNeedCel = (regs: Pick<RegistrySet, 'get'>, attrs: Pick<AdmissionAttributes, 'resource'>): boolean => {
  const group = attrs.resource.group;
  return COMPILING_GROUPS.has(group) || !BUILTIN_GROUPS.has(group)
    || EVALUATED_IN_ADMISSION.some((plural) => regs.get('admissionregistration.k8s.io', 'v1', plural)?.hasAny() ?? false);
};

export function withCel(regs: RegistrySet, a: Admission): Admission {
  // Once loaded (or when not needed), the call goes straight through: no promise of its own on every write.
  const needsLoad = (attrs: AdmissionAttributes): boolean => !celLoaded() && mayNeedCel(regs, attrs);
  return {
    mutate: (attrs) => (needsLoad(attrs) ? loadCel().then(() => a.mutate(attrs)) : a.mutate(attrs)),
    validate: (attrs) => (needsLoad(attrs) ? loadCel().then(() => a.validate(attrs)) : a.validate(attrs)),
  };
}
