// pkg/scheduler: a kube-scheduler over pkg/client. See scheduler.ts for the flow.
export * from './config.js';
export * from './scheduler.js';
export * from './cache.js';
export * from './queue.js';
export { Framework, FrameworkError } from './framework/runtime.js';
export * from './framework/interface.js';
export { inTreeRegistry } from './plugins/index.js';
export { numFeasibleNodesToFind } from './schedule-one.js';
export { fitErrorMessage } from './diagnosis.js';
