// networking/v1 computed defaults (upstream pkg/apis/networking/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { N } from './common.js';

const networkPolicy: Defaulter = (o) => {
  const spec = (o.spec ??= {});
  if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
};

const networkPolicyPort: Defaulter = (p) => {
  p.protocol ??= 'TCP';
};

const ingressClass: Defaulter = (o) => {
  const parameters = o.spec?.parameters;
  if (parameters) parameters.scope ??= 'Cluster';
};

export const defaulters: Record<string, Defaulter> = {
  [`${N}NetworkPolicy`]: networkPolicy,
  [`${N}NetworkPolicyPort`]: networkPolicyPort,
  [`${N}IngressClass`]: ingressClass,
};
