// Kubernetes' CEL: the shared environment, its libraries and the cost limits (see env.ts, cost.ts).
export { compile, COST_LIMIT_EXCEEDED, evaluate, reads, type Ast, type Compiled, type Program } from './env.js';
export { costExceededMessage, estimateCost, maxElements, PER_CALL_LIMIT, RUNTIME_COST_BUDGET, STATIC_COST_LIMIT, STATIC_CRD_COST_LIMIT } from './cost.js';
export { celTypeName, checkExpression, checkTyped, resourceRootSchema, type Checked } from './check.js';
export { admissionScope, checkAdmissionExpression, compileVariables, type Scope, type ScopeOptions } from './admission.js';
export { AuthorizationSession, authorizerValue, withAuthorization, type AccessAnswer, type AccessQuestion } from './library/authz.js';
export { unescapeField } from './escaping.js';
