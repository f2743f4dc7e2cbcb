// DenyServiceExternalIPs: no Service may take on an external IP it did not already have (CVE-2020-8554: a
// Service's externalIPs capture traffic to those addresses) (upstream: plugin/pkg/admission/network/denyserviceexternalips).
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';

export class DenyServiceExternalIPs implements ValidatingPlugin {
  readonly name = 'DenyServiceExternalIPs';

  validate(a: AdmissionAttributes): void {
    if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !isResource(a, '', 'services') || a.subresource || !a.object) return;
    const ips: string[] = a.object.spec?.externalIPs ?? [];
    if (!ips.length) return;
    const had = new Set<string>(a.oldObject?.spec?.externalIPs ?? []);
    if (a.oldObject && ips.every((ip) => had.has(ip))) return;
    throw admissionForbidden(a, 'Use of external IPs is denied by admission control');
  }
}
