// DefaultIngressClass: a new Ingress that names no class (neither spec.ingressClassName nor the
// kubernetes.io/ingress.class annotation) gets the default IngressClass (upstream:
// plugin/pkg/admission/network/defaultingressclass).
import { markedDefault } from '../../api/meta/v1/default-class.js';
import type { AdmissionDeps } from './deps.js';
import { isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';

const DEFAULT_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';
const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

export class DefaultIngressClass implements MutatingPlugin {
  readonly name = 'DefaultIngressClass';

  constructor(private readonly deps: Pick<AdmissionDeps, 'list'>) {}

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.subresource || !a.object || !isResource(a, 'networking.k8s.io', 'ingresses')) return;
    const ingress = a.object;
    if ((ingress.spec?.ingressClassName ?? null) !== null || ingress.metadata?.annotations?.[CLASS_ANNOTATION] !== undefined) return;
    const def = markedDefault(this.deps.list('networking.k8s.io', 'ingressclasses'), [DEFAULT_ANNOTATION]);
    if (def) (ingress.spec ??= {}).ingressClassName = def.metadata!.name;
  }
}
