// NamespaceExists: a request in a namespace that does not exist is refused with the namespace's
// NotFound (upstream: plugin/pkg/admission/namespace/exists).
import { notFound } from '../apimachinery/errors.js';
import type { AdmissionDeps } from './deps.js';
import { isResource } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';

export class NamespaceExists implements ValidatingPlugin {
  readonly name = 'NamespaceExists';

  constructor(private readonly deps: Pick<AdmissionDeps, 'get'>) {}

  validate(a: AdmissionAttributes): void {
    if (!a.namespace || isResource(a, '', 'namespaces')) return;
    if (!this.deps.get('', 'namespaces', undefined, a.namespace)) throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
  }
}
