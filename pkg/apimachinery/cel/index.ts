// Kubernetes' CEL: the shared environment, its libraries and the cost limits (see env.ts, cost.ts).
export { compile, COST_LIMIT_EXCEEDED, evaluate, reads, type Ast, type Compiled, type Program } from './env.js';
export { costExceededMessage, estimateCost, maxElements, PER_CALL_LIMIT, RUNTIME_COST_BUDGET, STATIC_COST_LIMIT, STATIC_CRD_COST_LIMIT } from './cost.js';
export { celTypeName, checkExpression, checkTyped, resourceRootSchema, type Checked } from './check.js';
export { ADMISSION_REQUEST_TYPE, NAMESPACE_TYPE } from './admission-types.js';
export { AuthorizationSession, authorizerValue, withAuthorization, type AccessAnswer, type AccessQuestion } from './library/authz.js';
