// What needs the CEL runtime (@bufbuild/cel and its protobuf registry: ~0.6 MB of code and ~40 ms of boot), loaded
// by index.ts on first need rather than at every apiserver start.
export { compile, evaluate, reads } from './env.js';
export { celTypeName, checkExpression, checkTyped } from './check.js';
export { admissionScope, checkAdmissionExpression, compileVariables } from './admission.js';
export { authorizerValue } from './library/authz.js';
export { optionalNone, optionalOf } from './library/types.js';
export { isCelError, isCelList, isCelMap, isCelUint } from '@bufbuild/cel';
