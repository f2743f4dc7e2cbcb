// Types of parse-prometheus-text-format (the package ships none): Prometheus text exposition in, metric families out.
declare module 'parse-prometheus-text-format' {
  interface Sample { value: string; labels?: Record<string, string>; timestamp_ms?: string }
  interface MetricFamily { name: string; help: string; type: string; metrics: Sample[] }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
