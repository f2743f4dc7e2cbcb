// The kubelet's /metrics in Prometheus text format: the gauges upstream's kubelet exports about what it runs
// (kubelet_node_name, kubelet_running_pods, kubelet_running_containers by container_state), read from the
// kubelets and their runtimes at scrape time, and the process's own figures (one registry for the process, however
// many nodes it simulates). Nodes sharing an address export one kubelet_node_name each and the sums of the others.
import { Gauge, Registry } from 'prom-client';
import type { ContainerState } from './runtime/types.js';

export interface MetricsSource {
  nodeName: string;
  /** The pod sandboxes the runtime holds, ready or not. */
  sandboxStates(): string[];
  containerStates(): ContainerState[];
}

const STATES: ContainerState[] = ['created', 'running', 'exited', 'unknown'];

export function kubeletMetrics(sources: () => MetricsSource[]): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'kubelet_node_name', help: "The node's name. The count is always 1.", labelNames: ['node'] as const, registers: [registry],
    collect() {
      this.reset();
      for (const s of sources()) this.set({ node: s.nodeName }, 1);
    },
  });
  new Gauge({
    name: 'kubelet_running_pods', help: 'Number of pods that have a running pod sandbox', registers: [registry],
    collect() {
      this.set(sources().reduce((n, s) => n + s.sandboxStates().filter((st) => st === 'ready').length, 0));
    },
  });
  new Gauge({
    name: 'kubelet_running_containers', help: 'Number of containers currently running', labelNames: ['container_state'] as const, registers: [registry],
    collect() {
      const counts = new Map<ContainerState, number>(STATES.map((st) => [st, 0]));
      for (const s of sources()) for (const st of s.containerStates()) counts.set(st, (counts.get(st) ?? 0) + 1);
      for (const [st, n] of counts) this.set({ container_state: st }, n);
    },
  });
  return registry;
}
