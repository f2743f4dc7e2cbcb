// The admission chain: all mutating plugins in order, later all validating ones in order.
import type { Admission, AdmissionAttributes, AdmissionPlugin, MutatingPlugin, ValidatingPlugin } from './interface.js';

const isMutating = (p: AdmissionPlugin): p is MutatingPlugin => typeof (p as MutatingPlugin).admit === 'function';
const isValidating = (p: AdmissionPlugin): p is ValidatingPlugin => typeof (p as ValidatingPlugin).validate === 'function';

type Step = (attrs: AdmissionAttributes) => Promise<void> | void;

/**
 * The steps in order, synchronously for as long as they answer at once; from the first that returns a promise on,
 * each is awaited (every write passes them all twice, and most plugins never wait).
 */
function inOrder(steps: Step[]): (attrs: AdmissionAttributes) => Promise<void> | void {
  const rest = async (attrs: AdmissionAttributes, from: number, pending: Promise<void>): Promise<void> => {
    await pending;
    for (let i = from; i < steps.length; i++) {
      const r = steps[i]!(attrs);
      if (r) await r;
    }
  };
  return (attrs) => {
    for (let i = 0; i < steps.length; i++) {
      const r = steps[i]!(attrs);
      if (r) return rest(attrs, i + 1, r);
    }
    return undefined;
  };
}

/** A phase's steps for writes, and those of the plugins that handle CONNECT for connect requests. */
function phase<P extends AdmissionPlugin>(plugins: P[], step: (p: P) => Step): Step {
  const all = inOrder(plugins.map(step));
  const connect = inOrder(plugins.filter((p) => p.handlesConnect).map(step));
  return (a) => (a.operation === 'CONNECT' ? connect(a) : all(a));
}

export function chain(plugins: AdmissionPlugin[]): Admission {
  return {
    mutate: phase(plugins.filter(isMutating), (p): Step => (a) => p.admit(a)),
    validate: phase(plugins.filter(isValidating), (p): Step => (a) => p.validate(a)),
  };
}
