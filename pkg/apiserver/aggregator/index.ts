// API aggregation: APIServices, their availability, the proxy to extension apiservers and their discovery.
export { createAggregator, type Aggregator, type AggregatorOptions } from './aggregator.js';
export { authenticationConfigMap, publishAuthenticationConfigMap } from './authentication-configmap.js';
