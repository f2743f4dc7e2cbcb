// The last two points of every node and container, as metrics-server's storage keeps them: usage is the CPU rate
// between the two (cumulative nanocore-seconds over the window between their timestamps) and the memory of the
// last. A container that started within the last resolution (but at least 10 s ago) is measured from its start, so
// a new pod has figures after one scrape; a point no newer than the last one keeps the previous pair.
import { formatQuantity } from '../apimachinery/quantity.js';
import type { MetricsBatch, MetricsPoint } from './decode.js';

const FRESH_CONTAINER_MIN_MS = 10_000;

export interface Usage {
  /** The end of the window (epoch ms) and its length. */
  timestamp: number;
  windowMs: number;
  cpu: string;
  memory: string;
}

/** Usage between two points, or a reason when they cannot be compared (a restart, a counter going back). */
function usageBetween(last: MetricsPoint, prev: MetricsPoint): Usage | string {
  if (last.startTime < prev.startTime) return 'unexpected decrease in startTime of node/container';
  if (last.cpuNanoSeconds < prev.cpuNanoSeconds) return 'unexpected decrease in cumulative CPU usage value';
  const windowMs = last.timestamp - prev.timestamp;
  const nanoCores = Math.floor((last.cpuNanoSeconds - prev.cpuNanoSeconds) / (windowMs / 1000));
  return {
    timestamp: last.timestamp, windowMs,
    // CPU in nanocores (DecimalSI, scale -9), memory in bytes (BinarySI), canonical as resource.Quantity prints them
    cpu: formatQuantity({ nanos: BigInt(nanoCores), format: 'DecimalSI' }),
    memory: formatQuantity({ nanos: BigInt(Math.round(last.memoryBytes)) * 1_000_000_000n, format: 'BinarySI' }),
  };
}

export interface ContainerUsage { name: string; usage: Usage }

export class MetricsStorage {
  private lastNodes = new Map<string, MetricsPoint>();
  private prevNodes = new Map<string, MetricsPoint>();
  private lastPods = new Map<string, Map<string, MetricsPoint>>();
  private prevPods = new Map<string, Map<string, MetricsPoint>>();
  private stored = false;

  constructor(private readonly resolutionMs: number, private readonly onSkip: (what: string, reason: string) => void = () => {}) {}

  /** Ready once a scrape has been stored (upstream's metric-storage-ready check). */
  get ready(): boolean { return this.stored; }

  store(batch: MetricsBatch): void {
    const lastNodes = new Map<string, MetricsPoint>();
    const prevNodes = new Map<string, MetricsPoint>();
    for (const [name, point] of batch.nodes) {
      lastNodes.set(name, point);
      const last = this.lastNodes.get(name);
      const prev = this.prevNodes.get(name);
      if (last && point.timestamp > last.timestamp) prevNodes.set(name, last);
      else if (last && prev && prev.timestamp < point.timestamp) prevNodes.set(name, prev);
    }
    const lastPods = new Map<string, Map<string, MetricsPoint>>();
    const prevPods = new Map<string, Map<string, MetricsPoint>>();
    for (const [key, containers] of batch.pods) {
      const prevContainers = new Map<string, MetricsPoint>();
      for (const [name, point] of containers) {
        const age = point.timestamp - point.startTime;
        const last = this.lastPods.get(key)?.get(name);
        const prev = this.prevPods.get(key)?.get(name);
        if (point.startTime < point.timestamp && age < this.resolutionMs && age >= FRESH_CONTAINER_MIN_MS) {
          prevContainers.set(name, { ...point, timestamp: point.startTime, cpuNanoSeconds: 0 });
        } else if (last && point.startTime < last.timestamp) {
          if (point.timestamp > last.timestamp) prevContainers.set(name, last);
          else if (prev && prev.timestamp < point.timestamp) prevContainers.set(name, prev);
        }
      }
      lastPods.set(key, containers);
      if (prevContainers.size) prevPods.set(key, prevContainers);
    }
    this.lastNodes = lastNodes;
    this.prevNodes = prevNodes;
    this.lastPods = lastPods;
    this.prevPods = prevPods;
    this.stored = true;
  }

  nodeUsage(name: string): Usage | undefined {
    const last = this.lastNodes.get(name);
    const prev = this.prevNodes.get(name);
    if (!last || !prev) return undefined;
    const u = usageBetween(last, prev);
    if (typeof u === 'string') { this.onSkip(`node ${name}`, u); return undefined; }
    return u;
  }

  /** Every container's usage, or undefined unless each container of the last scrape has two points. */
  podUsage(key: string): { containers: ContainerUsage[]; timestamp: number; windowMs: number } | undefined {
    const last = this.lastPods.get(key);
    const prev = this.prevPods.get(key);
    if (!last || !prev) return undefined;
    const containers: ContainerUsage[] = [];
    let earliest: Usage | undefined;
    for (const [name, point] of last) {
      const p = prev.get(name);
      if (!p) return undefined;
      const u = usageBetween(point, p);
      if (typeof u === 'string') { this.onSkip(`container ${name} of pod ${key}`, u); continue; }
      containers.push({ name, usage: u });
      if (!earliest || earliest.timestamp > u.timestamp) earliest = u;
    }
    return { containers, timestamp: earliest?.timestamp ?? 0, windowMs: earliest?.windowMs ?? 0 };
  }
}
