// The admission chain: all mutating plugins in order, later all validating ones in order.
import type { Admission, AdmissionAttributes, AdmissionPlugin, MutatingPlugin, ValidatingPlugin } from './interface.js';

const isMutating = (p: AdmissionPlugin): p is MutatingPlugin => typeof (p as MutatingPlugin).admit === 'function';
const isValidating = (p: AdmissionPlugin): p is ValidatingPlugin => typeof (p as ValidatingPlugin).validate === 'function';

export function chain(plugins: AdmissionPlugin[]): Admission {
  const mutating = plugins.filter(isMutating);
  const validating = plugins.filter(isValidating);
  // Most plugins answer synchronously: only a returned promise is awaited (every write passes them all twice).
  return {
    async mutate(attrs: AdmissionAttributes) {
      for (const p of mutating) {
        const r = p.admit(attrs);
        if (r) await r;
      }
    },
    async validate(attrs: AdmissionAttributes) {
      for (const p of validating) {
        const r = p.validate(attrs);
        if (r) await r;
      }
    },
  };
}
