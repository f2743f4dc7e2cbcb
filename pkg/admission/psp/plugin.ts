// PodSecurityPolicy (upstream 1.24: plugin/pkg/admission/security/podsecuritypolicy; off by default): a pod is
// admitted under a policy that the requesting user or the pod's service account may `use`. A policy that allows
// the pod as it is wins; otherwise the first by name that allows it once its defaults are applied, and its name is
// recorded in the kubernetes.io/psp annotation. Updates must be allowed as they are, without any change.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import type { UserInfo } from '../../authentication/interface.js';
import type { AdmissionDeps } from '../deps.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from '../interface.js';
import { isPodCreateOrUpdate } from '../pod-helpers.js';
import { deepEqual } from '../../apimachinery/semantic-equal.js';
import { newProvider, type Provider } from './provider.js';

export const VALIDATED_PSP_ANNOTATION = 'kubernetes.io/psp';

/** Whether a user may `use` a named policy in a namespace; false when there is no user. */
export type PolicyAuthorizer = (user: UserInfo | undefined, namespace: string, policy: string) => Promise<boolean>;

/** The `use` check over the apiserver's authorizer, in the policy group and (for older grants) extensions. */
export const policyUseAuthorizer = (authorize: AdmissionDeps['authorize']): PolicyAuthorizer => async (user, namespace, name) => {
  if (!user || !authorize) return false;
  for (const apiGroup of ['policy', 'extensions']) {
    if (await authorize({ user, verb: 'use', apiGroup, resource: 'podsecuritypolicies', namespace, name })) return true;
  }
  return false;
};

interface Outcome {
  pod?: KubeObject;
  policy?: string;
  errors: StatusCause[];
}

/** The service account a pod runs as, as the authenticator would name it. */
const serviceAccountUser = (namespace: string, name: string): UserInfo => ({
  name: `system:serviceaccount:${namespace}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
});

/** An update that only changes ownerReferences or finalizers (the garbage collector's writes) is not checked. */
function onlyGcFieldsChanged(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const strip = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, ownerReferences: undefined, finalizers: undefined, resourceVersion: undefined, managedFields: undefined } });
  return deepEqual(strip(obj), strip(old));
}

export class PodSecurityPolicy implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'PodSecurityPolicy';

  constructor(private readonly deps: Pick<AdmissionDeps, 'list'>, private readonly authorize: PolicyAuthorizer) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || this.ignore(a)) return;
    const pod = a.object!;
    const out = await this.compute(a, pod, true, '');
    if (!out.pod) throw admissionForbidden(a, `PodSecurityPolicy: unable to admit pod: ${formatErrors(out.errors)}`);
    for (const k of Object.keys(pod)) delete pod[k];
    Object.assign(pod, out.pod);
    pod.metadata = { ...pod.metadata, annotations: { ...pod.metadata?.annotations, [VALIDATED_PSP_ANNOTATION]: out.policy! } };
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || this.ignore(a)) return;
    const pod = a.object!;
    const out = await this.compute(a, pod, false, pod.metadata?.annotations?.[VALIDATED_PSP_ANNOTATION] ?? '');
    if (!out.pod) throw admissionForbidden(a, `PodSecurityPolicy: unable to validate pod: ${formatErrors(out.errors)}`);
  }

  private ignore(a: AdmissionAttributes): boolean {
    if (!isPodCreateOrUpdate(a.resource, a.subresource) || !a.object) return true;
    return a.operation === 'UPDATE' && onlyGcFieldsChanged(a.object, a.oldObject);
  }

  /**
   * Upstream's computeSecurityContext: the first authorized policy that allows the pod unchanged, else (when
   * mutation is allowed) the first that allows it with its defaults; with none, the errors of the authorized ones.
   */
  private async compute(a: AdmissionAttributes, pod: KubeObject, mutationAllowed: boolean, hint: string): Promise<Outcome> {
    const namespace = a.namespace ?? '';
    const saName = pod.spec?.serviceAccountName as string | undefined;
    const sa = saName ? serviceAccountUser(namespace, saName) : undefined;
    const authorized = async (policy: string) => (await this.authorize(sa, namespace, policy)) || this.authorize(a.user, namespace, policy);

    const policies = this.deps.list('policy', 'podsecuritypolicies')
      .sort((x, y) => order(x, y, mutationAllowed ? '' : hint));
    const providers: Provider[] = [];
    for (const p of policies) {
      try {
        providers.push(newProvider(p));
      } catch {
        // upstream logs "error creating provider for PSP" and goes on without it
      }
    }
    if (!providers.length) throw admissionForbidden(a, 'PodSecurityPolicy: no providers available to validate pod request');

    let mutated: Outcome | undefined;
    const failed = new Map<string, StatusCause[]>();
    for (const provider of providers) {
      const copy = structuredClone(pod);
      provider.mutatePod(copy);
      const errors = provider.validatePod(copy);
      if (errors.length) {
        failed.set(provider.name, errors);
        continue;
      }
      const changed = !deepEqual(pod, copy);
      if (changed && !mutationAllowed) continue;
      if (!(await authorized(provider.name))) continue;
      if (!changed) return { pod: copy, policy: provider.name, errors: [] };
      mutated ??= { pod: copy, policy: provider.name, errors: [] };
    }
    if (mutated) return mutated;
    const errors: StatusCause[] = [];
    for (const [policy, errs] of failed) if (await authorized(policy)) errors.push(...errs);
    return { errors };
  }
}

/** By name; the hinted policy (the one a pod was admitted under) first when nothing may change. */
function order(x: KubeObject, y: KubeObject, hint: string): number {
  const a = x.metadata?.name ?? '';
  const b = y.metadata?.name ?? '';
  if (hint && a !== b && (a === hint || b === hint)) return a === hint ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A field.ErrorList as Go's %v prints it: `[a b]`. */
const formatErrors = (errs: StatusCause[]): string => `[${errs.map(causeToString).join(' ')}]`;
