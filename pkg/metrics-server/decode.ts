// A kubelet's /metrics/resource scrape as metrics-server reads it (its scraper/client/resource decodeBatch): the node's
// and each container's cumulative CPU seconds, working-set memory and start time, each sample at its own timestamp
// (the scrape's start when it has none). A node or a container missing its CPU or memory figure is left out, and a
// pod with such a container is left out whole, as upstream drops incomplete points.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface MetricsPoint {
  /** Start of the container (epoch ms); 0 for a node. */
  startTime: number;
  /** When the figures were read (epoch ms). */
  timestamp: number;
  /** Cumulative CPU used, in nanocore-seconds. */
  cpuNanoSeconds: number;
  memoryBytes: number;
}

export interface MetricsBatch {
  nodes: Map<string, MetricsPoint>;
  /** Keyed by namespace/name, then by container name. */
  pods: Map<string, Map<string, MetricsPoint>>;
}

const empty = (): MetricsPoint => ({ startTime: 0, timestamp: 0, cpuNanoSeconds: 0, memoryBytes: 0 });

export const podKey = (namespace: string, name: string): string => `${namespace}/${name}`;

export function decodeBatch(text: string, scrapedAt: number, nodeName: string): MetricsBatch {
  const node = empty();
  const pods = new Map<string, Map<string, MetricsPoint>>();
  const container = (labels: Record<string, string> | undefined): MetricsPoint => {
    const key = podKey(labels?.namespace ?? '', labels?.pod ?? '');
    let containers = pods.get(key);
    if (!containers) pods.set(key, (containers = new Map()));
    const name = labels?.container ?? '';
    let p = containers.get(name);
    if (!p) containers.set(name, (p = empty()));
    return p;
  };
  for (const family of parsePrometheusTextFormat(text)) {
    for (const s of family.metrics) {
      const value = Number(s.value);
      const at = s.timestamp_ms !== undefined ? Number(s.timestamp_ms) : scrapedAt;
      switch (family.name) {
        case 'node_cpu_usage_seconds_total': node.cpuNanoSeconds = Math.round(value * 1e9); node.timestamp = at; break;
        case 'node_memory_working_set_bytes': node.memoryBytes = value; node.timestamp = at; break;
        case 'container_cpu_usage_seconds_total': { const p = container(s.labels); p.cpuNanoSeconds = Math.round(value * 1e9); p.timestamp = at; break; }
        case 'container_memory_working_set_bytes': { const p = container(s.labels); p.memoryBytes = value; p.timestamp = at; break; }
        case 'container_start_time_seconds': container(s.labels).startTime = Math.round(value * 1000); break;
        default: break;
      }
    }
  }
  const batch: MetricsBatch = { nodes: new Map(), pods: new Map() };
  if (node.timestamp && node.cpuNanoSeconds && node.memoryBytes) batch.nodes.set(nodeName, node);
  for (const [key, containers] of pods) {
    const complete = [...containers.values()].every((p) => p.cpuNanoSeconds && p.memoryBytes);
    if (complete && containers.size) batch.pods.set(key, containers);
  }
  return batch;
}
