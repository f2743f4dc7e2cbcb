// Kubernetes' CEL: the shared environment, its libraries and the cost limits (see env.ts, cost.ts). The runtime
// (runtime.ts) is loaded on first need: loadCel() before anything that compiles or evaluates — the apiserver awaits
// it before admitting a write and before serving its CRDs, and loads it in the background once ready; a function
// below called before that is a bug, said so by its error.
export type { Ast, Compiled, Program } from './env.js';
export type { Checked } from './check.js';
export type { Scope, ScopeOptions } from './admission.js';
export {
  childCardinality, COST_LIMIT_EXCEEDED, costExceededMessage, estimateCost, multiplyCost, PER_CALL_LIMIT, resourceRootSchema,
  RUNTIME_COST_BUDGET, STATIC_COST_LIMIT, STATIC_CRD_COST_LIMIT, unboundedCardinality,
} from './cost.js';
export { AuthorizationSession, withAuthorization, type AccessAnswer, type AccessQuestion } from './library/session.js';
export { unescapeField } from './escaping.js';

type Runtime = typeof import('./runtime.js');
let runtime: Runtime | undefined;
let loading: Promise<Runtime> | undefined;

/** Loads the CEL runtime once; resolves when every function below can be called. */
export const loadCel = (): Promise<Runtime> => (loading ??= import('./runtime.js').then((m) => (runtime = m)));
export const celLoaded = (): boolean => runtime !== undefined;

const lazy = <K extends keyof Runtime>(name: K): Runtime[K] => ((...args: unknown[]) => {
  if (!runtime) throw new Error(`CEL's ${name} called before loadCel() resolved`);
  return (runtime[name] as (...a: unknown[]) => unknown)(...args);
}) as Runtime[K];

export const compile = lazy('compile');
export const evaluate = lazy('evaluate');
export const reads = lazy('reads');
export const celTypeName = lazy('celTypeName');
export const checkExpression = lazy('checkExpression');
export const checkTyped = lazy('checkTyped');
export const admissionScope = lazy('admissionScope');
export const checkAdmissionExpression = lazy('checkAdmissionExpression');
export const compileVariables = lazy('compileVariables');
export const authorizerValue = lazy('authorizerValue');
export const isCelError = lazy('isCelError');
export const isCelList = lazy('isCelList');
export const isCelMap = lazy('isCelMap');
export const isCelUint = lazy('isCelUint');
export const optionalOf = lazy('optionalOf');
export const optionalNone = lazy('optionalNone');
