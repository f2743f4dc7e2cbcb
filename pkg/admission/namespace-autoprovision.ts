// NamespaceAutoProvision: creating an object in a namespace that does not exist creates the
// namespace first (upstream: plugin/pkg/admission/namespace/autoprovision).
import { isStatusError } from '../apimachinery/errors.js';
import type { AdmissionDeps } from './deps.js';
import { isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';

export class NamespaceAutoProvision implements MutatingPlugin {
  readonly name = 'NamespaceAutoProvision';

  constructor(private readonly deps: Pick<AdmissionDeps, 'get' | 'create'>) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || !a.namespace || !a.resource.namespaced || isResource(a, '', 'namespaces')) return;
    // A dry run must not leave a namespace behind.
    if (a.dryRun || this.deps.get('', 'namespaces', undefined, a.namespace)) return;
    try {
      await this.deps.create('', 'namespaces', undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: a.namespace } });
    } catch (err) {
      if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
    }
  }
}
