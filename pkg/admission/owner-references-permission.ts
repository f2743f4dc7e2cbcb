// OwnerReferencesPermissionEnforcement: changing an object's ownerReferences takes the right to delete it (the
// garbage collector would delete it for you), and a new blockOwnerDeletion takes the right to set finalizers on the
// owner (it holds the owner's foreground deletion) (upstream: plugin/pkg/admission/gc).
import type { KubeObject, OwnerReference, ResourceType } from '../../api/types.js';
import { builtinGroupVersions } from '../../api/index.js';
import type { AccessQuestion } from '../apimachinery/cel/index.js';
import { jsonEqual } from '../apimachinery/json-equal.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';

const refsOf = (obj: KubeObject | undefined): OwnerReference[] => obj?.metadata?.ownerReferences ?? [];

const changesOwners = (a: AdmissionAttributes): boolean => {
  const now = refsOf(a.object);
  if (!a.oldObject) return now.length > 0;
  const before = refsOf(a.oldObject);
  return now.length !== before.length || now.some((r, i) => !jsonEqual(r, before[i]));
};

/** The blocking references that are new, or were not blocking before (matched by uid). */
const newBlockingRefs = (a: AdmissionAttributes): OwnerReference[] => {
  const before = new Map(refsOf(a.oldObject).map((r) => [r.uid, r]));
  return refsOf(a.object).filter((r) => r.blockOwnerDeletion === true && before.get(r.uid)?.blockOwnerDeletion !== true);
};

type Deps = Pick<AdmissionDeps, 'resource' | 'equivalents' | 'list' | 'review'>;

export class OwnerReferencesPermissionEnforcement implements ValidatingPlugin {
  readonly name = 'OwnerReferencesPermissionEnforcement';

  constructor(private readonly deps: Deps) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    // Old kubelets rewrite pods' status with whatever ownerReferences they have; the status strategy keeps them.
    if (isResource(a, '', 'pods') && a.subresource === 'status') return;
    if (!a.object?.metadata || !changesOwners(a)) return;
    // Whoever creates an object could as well not have created it: only an update needs the right to delete.
    if (a.operation === 'UPDATE') {
      const why = await this.denied(a, { verb: 'delete', group: a.resource.group, resource: a.resource.plural, subresource: a.subresource ?? '', namespace: a.namespace ?? '', name: a.name });
      if (why !== undefined) throw admissionForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${why}`);
    }
    const blocking = newBlockingRefs(a);
    // One check for the right to finalize anything spares resolving every owner's kind.
    if (!blocking.length || await this.denied(a, { verb: 'update', group: '*', resource: '*', subresource: 'finalizers', name: '*' }) === undefined) return;
    for (const ref of blocking) {
      for (const rt of this.resourcesOf(a, ref)) {
        const why = await this.denied(a, {
          verb: 'update', group: rt.group, resource: rt.plural, subresource: 'finalizers', name: ref.name,
          // A namespaced owner is in the dependent's namespace.
          namespace: rt.namespaced ? a.namespace ?? '' : '',
        });
        if (why !== undefined) throw admissionForbidden(a, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${why}`);
      }
    }
  }

  /** Undefined when the user may, else upstream's `reason, err` of the refusal. */
  private async denied(a: AdmissionAttributes, q: Omit<AccessQuestion, 'user'>): Promise<string | undefined> {
    const answer = a.user && this.deps.review ? await this.deps.review({ ...q, user: a.user }) : { allowed: false, reason: '' };
    return answer.allowed ? undefined : `${answer.reason}, ${answer.error ?? '<nil>'}`;
  }

  /** The served resources of the owner's kind at its version (upstream's RESTMappings), or upstream's refusal. */
  private resourcesOf(a: AdmissionAttributes, ref: OwnerReference): ResourceType[] {
    const fail = (why: string): Error =>
      admissionForbidden(a, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${why}`);
    const gv = ref.apiVersion ?? '';
    const parts = gv.split('/');
    if (parts.length > 2) throw fail(`unexpected GroupVersion string: ${gv}`);
    const [group, version] = parts.length === 2 ? parts as [string, string] : ['', gv];
    const plurals = new Set([
      ...builtinGroupVersions.flatMap((g) => g.resources).filter((r) => r.group === group && r.kind === ref.kind).map((r) => r.plural),
      ...this.deps.list('apiextensions.k8s.io', 'customresourcedefinitions')
        .filter((c) => c.spec?.group === group && c.spec?.names?.kind === ref.kind).map((c) => c.spec.names.plural as string),
    ]);
    const served = [...plurals].flatMap((plural) => {
      const rt = this.deps.resource(group, plural);
      return rt ? this.deps.equivalents(rt).filter((e) => e.group === group && e.plural === plural && e.version === version) : [];
    });
    if (!served.length) throw fail(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(group ? `${group}/${version}` : version)}`);
    return served;
  }
}
