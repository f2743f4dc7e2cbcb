// The process's own figures (CPU, memory, file descriptors, event loop lag, GC: prom-client's default metrics),
// collected once per process and registered into each registry that serves them. Their collectors are never
// stopped (GC's is a PerformanceObserver): collected into each new registry, they kept every registry, and all that
// its metrics read (a whole apiserver), for the life of a process that starts several (tests, embedders).
import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/** `registry`, serving the process's figures too. */
export function withProcessMetrics(registry: Registry): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  for (const { name } of shared.getMetricsAsArray()) registry.registerMetric(shared.getSingleMetric(name)!);
  return registry;
}
