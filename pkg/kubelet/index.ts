// pkg/kubelet: the node agent. KubeletHost runs one kubelet (or many simulated ones) in a process.
export * from './host.js';
export * from './kubelet.js';
export * from './node-agent.js';
export * from './node-status.js';
export * from './pod-status.js';
export * from './pod-sync.js';
export * from './pod-workers.js';
export * from './pleg.js';
export * from './status-manager.js';
export * from './runtime/types.js';
export * from './runtime/fake.js';
export * from './runtime/process.js';
export * from './server.js';
export * from './env.js';
export * from './probes.js';
export * from './admission.js';
export * from './volumes.js';
