// Ingresses, ingress classes and network policies.
import { column, simplePrinter } from './types.js';
import { formatLabelSelector } from './format.js';
import { loadBalancerAddresses } from './service.js';

/**
 * The first three hosts the rules name, "*" when none does; " + N more..." (N = rules beyond three)
 * when a rule follows the third host.
 */
export function ingressHosts(rules: { host?: string }[] | undefined): string {
  const all = rules ?? [];
  const hosts: string[] = [];
  let more = false;
  for (const rule of all) {
    if (hosts.length === 3) {
      more = true;
      break;
    }
    if (rule.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${all.length - 3} more...` : hosts.join(',');
}

export const ingressPrinter = simplePrinter(
  [
    column('Class', 'The ingress class that handles this ingress.'),
    column('Hosts', 'The hosts requests must name to match the rules.'),
    column('Address', 'The addresses of the load balancer that serves the ingress.'),
    column('Ports', 'The ports the ingress serves: 80, and 443 with TLS.'),
  ],
  (ing) => [
    ing.spec?.ingressClassName ?? '<none>',
    ingressHosts(ing.spec?.rules),
    loadBalancerAddresses(ing.status?.loadBalancer),
    (ing.spec?.tls ?? []).length > 0 ? '80, 443' : '80',
  ],
);

export const ingressClassPrinter = simplePrinter(
  [
    column('Controller', 'The controller that implements this class.'),
    column('Parameters', 'The resource holding extra configuration, as Kind.group/name.'),
  ],
  (ic) => {
    const p = ic.spec?.parameters;
    const parameters = p ? `${p.kind}${p.apiGroup ? `.${p.apiGroup}` : ''}/${p.name}` : '<none>';
    return [ic.spec?.controller ?? '', parameters];
  },
);

export const networkPolicyPrinter = simplePrinter(
  [column('Pod-Selector', 'The pods the policy applies to.')],
  (np) => [formatLabelSelector(np.spec?.podSelector)],
);
