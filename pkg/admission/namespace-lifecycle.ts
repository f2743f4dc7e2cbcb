// NamespaceLifecycle: no new objects in a namespace that does not exist or is being terminated,
// and the system namespaces cannot be deleted (upstream: plugin/pkg/admission/namespace/lifecycle). As upstream's, it
// decides in the mutating phase, before any other plugin looks at the request's namespace (ServiceAccount's account).
import type { KubeObject } from '../../api/types.js';
import { forbidden, notFound } from '../apimachinery/errors.js';
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);

export class NamespaceLifecycle implements MutatingPlugin {
  readonly name = 'NamespaceLifecycle';

  constructor(private readonly getNamespace: (name: string) => KubeObject | undefined) {}

  admit(a: AdmissionAttributes): void {
    if (a.resource.group === '' && a.resource.plural === 'namespaces') {
      if (a.operation === 'DELETE' && IMMORTAL.has(a.name)) {
        throw forbidden(`namespaces "${a.name}" is forbidden: this namespace may not be deleted`, { name: a.name, kind: 'namespaces' });
      }
      return;
    }
    if (!a.resource.namespaced || !a.namespace || a.operation !== 'CREATE') return;
    // a permission check says nothing about the namespace
    if (a.resource.group === 'authorization.k8s.io' && a.resource.plural === 'localsubjectaccessreviews') return;
    const ns = this.getNamespace(a.namespace);
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
    if (ns.status?.phase === 'Terminating' || ns.metadata?.deletionTimestamp) {
      const gr = a.resource.group ? `${a.resource.plural}.${a.resource.group}` : a.resource.plural;
      throw forbidden(
        `${gr} "${a.name}" is forbidden: unable to create new content in namespace ${a.namespace} because it is being terminated`,
        { name: a.name, group: a.resource.group || undefined, kind: a.resource.plural, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] },
      );
    }
  }
}
