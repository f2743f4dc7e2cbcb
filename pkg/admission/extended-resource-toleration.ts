// ExtendedResourceToleration: a pod that asks for an extended resource (example.com/gpu) tolerates the NoSchedule
// taint of that name, so nodes with such devices can be tainted to keep other pods off (upstream:
// plugin/pkg/admission/extendedresourcetoleration).
import { isQualifiedName } from '../apimachinery/names.js';
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';
import { isPodCreateOrUpdate } from './pod-helpers.js';
import { addOrUpdateToleration } from './tolerations.js';

/**
 * Upstream's helper.IsExtendedResourceName: a domain-prefixed name outside kubernetes.io that is not a quota
 * `requests.` name and stays a qualified name as one.
 */
export const isExtendedResourceName = (name: string): boolean =>
  name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

export class ExtendedResourceToleration implements MutatingPlugin {
  readonly name = 'ExtendedResourceToleration';

  admit(a: AdmissionAttributes): void {
    if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !isPodCreateOrUpdate(a.resource, a.subresource) || !a.object?.spec) return;
    const spec = a.object.spec;
    const names = new Set<string>();
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      for (const r of Object.keys(c?.resources?.requests ?? {})) if (isExtendedResourceName(r)) names.add(r);
    }
    // Sorted, as upstream adds them.
    for (const r of [...names].sort()) addOrUpdateToleration(spec, { key: r, operator: 'Exists', effect: 'NoSchedule' });
  }
}
