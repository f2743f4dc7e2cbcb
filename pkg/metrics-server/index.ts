// metrics-server: the resource metrics API (metrics.k8s.io) from the kubelets' /metrics/resource.
export { MetricsServer, type MetricsServerOptions } from './server.js';
export type { KubeletClientOptions } from './scraper.js';
