// Initializers (alpha, Kubernetes 1.7-1.13: apiserver/pkg/admission/plugin/initialization; on with
// --feature-gates=Initializers=true): a new object gets, as metadata.initializers.pending, the names of the
// InitializerConfiguration entries whose rules match its resource. While any is pending only the first may act: an
// update may remove that first entry (the last removal initializes the object) or set `result` to fail it, nothing
// else; initializers cannot be set again once gone; and a write that touches an uninitialized object, or a create
// that brings its own initializers, needs the `initialize` verb on the resource.
import type { KubeObject } from '../../api/types.js';
import { invalid, type StatusCause } from '../apimachinery/errors.js';
import { invalidValue } from '../apimachinery/field.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin } from './interface.js';
import { MIRROR_POD_ANNOTATION } from '../../api/core/v1/annotations.js';

const GROUP = 'admissionregistration.k8s.io';
const FIELD = 'metadata.initializers';

interface InitializerState {
  pending?: Array<{ name: string }>;
  result?: { status?: string };
}
type Rule = { apiGroups?: string[]; apiVersions?: string[]; resources?: string[] };

const stateOf = (o: KubeObject | undefined): InitializerState | undefined =>
  (o?.metadata as { initializers?: InitializerState | null } | undefined)?.initializers ?? undefined;
const clear = (o: KubeObject): void => {
  delete (o.metadata as { initializers?: unknown }).initializers;
};
const isEmpty = (s: InitializerState): boolean => !s.pending?.length && !s.result;

const matches = (list: string[] | undefined, value: string, all: string[]): boolean =>
  !!list?.length && (all.includes(list[0]!) || list.includes(value));

/** A rule matches a resource by group, version and plural; subresources are never initialized. */
function ruleMatches(rule: Rule, a: AdmissionAttributes): boolean {
  return matches(rule.apiGroups, a.resource.group, ['*']) && matches(rule.apiVersions, a.resource.version, ['*'])
    && matches(rule.resources?.filter((r) => !r.includes('/') || r === '*/*'), a.resource.plural, ['*', '*/*']);
}

/** The allowed transitions of metadata.initializers on update (upstream's ValidateInitializersUpdate, head-only). */
export function validateInitializersUpdate(next: InitializerState | undefined, old: InitializerState | undefined): StatusCause[] {
  if (!old) return next ? [invalidValue(FIELD, null, 'field is immutable once initialization has completed')] : [];
  const oldPending = (old.pending ?? []).map((p) => p.name);
  if (!next) return oldPending.length > 1 ? [invalidValue(`${FIELD}.pending`, null, `only the first pending initializer (${oldPending[0]}) may act; ${oldPending.slice(1).join(', ')} still pending`)] : [];
  const causes: StatusCause[] = [];
  if (old.result) {
    if (JSON.stringify(next.result) !== JSON.stringify(old.result)) causes.push(invalidValue(`${FIELD}.result`, next.result ?? null, 'field is immutable'));
  } else if (next.result?.status === 'Success') {
    causes.push(invalidValue(`${FIELD}.result.status`, 'Success', 'must not be success'));
  }
  const pending = (next.pending ?? []).map((p) => p.name);
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((n, i) => n === y[i]);
  if (!same(pending, oldPending) && !same(pending, oldPending.slice(1))) {
    causes.push(invalidValue(`${FIELD}.pending`, null, `only the first pending initializer (${oldPending[0]}) may be removed`));
  }
  return causes;
}

export class Initializers implements MutatingPlugin {
  readonly name = 'Initializers';

  constructor(private readonly deps: Pick<AdmissionDeps, 'list' | 'authorize'>) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || a.subresource || !a.object?.metadata) return;
    if (a.operation === 'CREATE') return this.admitCreate(a, a.object);
    const old = stateOf(a.oldObject);
    let next = stateOf(a.object);
    if (!next && !old) return;
    if (next && isEmpty(next)) {
      clear(a.object);
      next = undefined;
    }
    const causes = validateInitializersUpdate(next, old);
    if (causes.length) throw invalid(a.resource.group, a.resource.kind, a.name, causes);
    await this.mayInitialize(a, 'update to uninitialized resource denied');
  }

  private async admitCreate(a: AdmissionAttributes, obj: KubeObject): Promise<void> {
    const own = stateOf(obj);
    if ((obj.metadata as { initializers?: unknown }).initializers === null) clear(obj);
    if (own) {
      // Bringing one's own initializers (or {} to skip initialization) is for those who may initialize.
      await this.mayInitialize(a, 'create with initializers denied');
      if (isEmpty(own)) clear(obj);
      return;
    }
    // Mirror pods are made and initialized by the kubelet before they reach the API.
    if (a.resource.group === '' && a.resource.plural === 'pods' && obj.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return;
    const names = this.deps.list(GROUP, 'initializerconfigurations')
      .flatMap((c) => ((c.initializers ?? []) as Array<{ name: string; rules?: Rule[] }>))
      .filter((i) => (i.rules ?? []).some((r) => ruleMatches(r, a)))
      .map((i) => i.name);
    if (names.length) (obj.metadata as { initializers?: InitializerState }).initializers = { pending: names.map((name) => ({ name })) };
  }

  private async mayInitialize(a: AdmissionAttributes, message: string): Promise<void> {
    const allowed = a.user && this.deps.authorize ? await this.deps.authorize({
      user: a.user, verb: 'initialize', apiGroup: a.resource.group, resource: a.resource.plural, namespace: a.namespace ?? '', name: a.name,
    }) : false;
    if (!allowed) throw admissionForbidden(a, message);
  }
}
