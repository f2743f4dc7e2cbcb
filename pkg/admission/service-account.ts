// ServiceAccount: a new pod runs as a service account ("default" unless it names one), which must exist (the
// controller-manager's serviceaccount controller keeps a "default" one in every namespace); unless
// automounting is off (pod or account automountServiceAccountToken: false) it gets the projected
// kube-api-access-xxxxx volume (a bound token of 3607 s, the kube-root-ca.crt ConfigMap, the namespace) mounted at
// /var/run/secrets/kubernetes.io/serviceaccount in every container; the account's imagePullSecrets are copied when
// the pod has none. Upstream: plugin/pkg/admission/serviceaccount.
import type { KubeObject } from '../../api/types.js';
import { generateName } from '../apimachinery/names.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';
import { isPodCreateOrUpdate } from './pod-helpers.js';
import { cloneJson } from '../apimachinery/json-clone.js';
import { MIRROR_POD_ANNOTATION } from '../../api/core/v1/annotations.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
/** Lookups of a missing "default" account before the pod is refused (upstream's 10). */
const DEFAULT_ACCOUNT_RETRIES = 10;
/** Upstream's warn-only token lifetime: the TokenRequest API may extend such tokens (see handlers/token-request.ts). */
const PROJECTED_TOKEN_SECONDS = 3607;

export const projectedTokenVolume = (name: string): KubeObject => ({
  name,
  projected: {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: PROJECTED_TOKEN_SECONDS, path: 'token' } },
      { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  },
});

type Mount = { name: string; mountPath: string; readOnly?: boolean };

export class ServiceAccount implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'ServiceAccount';

  constructor(private readonly deps: AdmissionDeps) {}

  /** At once for what is not a pod's creation (a promise only for the service account a pod may wait for). */
  admit(a: AdmissionAttributes): Promise<void> | void {
    if (a.operation !== 'CREATE' || !isPodCreateOrUpdate(a.resource, a.subresource) || !a.object || !a.namespace) return;
    const pod = a.object;
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return this.validate(a);
    // A namespace that does not exist is NamespaceLifecycle's to refuse, with its own message.
    if (!this.deps.get('', 'namespaces', undefined, a.namespace)) return;
    return this.admitPod(pod, a, a.namespace);
  }

  private async admitPod(pod: KubeObject, a: AdmissionAttributes, namespace: string): Promise<void> {
    const spec = (pod.spec ??= {});
    if (!spec.serviceAccountName) spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
    spec.serviceAccount = spec.serviceAccountName; // the deprecated alias, kept equal as the PodSpec defaulter does
    const sa = await this.serviceAccount(a, namespace, spec.serviceAccountName as string);
    if (shouldAutomount(sa, spec)) mountToken(spec);
    if (!(Array.isArray(spec.imagePullSecrets) && spec.imagePullSecrets.length) && Array.isArray(sa.imagePullSecrets) && sa.imagePullSecrets.length) {
      spec.imagePullSecrets = cloneJson(sa.imagePullSecrets);
    }
  }

  /**
   * Mirror pods (static pods the kubelet reports) may not reference a service account, a secret or a projected token;
   * other pods, and ephemeral containers added to one, may reference only the secrets their account lists when it
   * says kubernetes.io/enforce-mountable-secrets=true.
   */
  validate(a: AdmissionAttributes): void {
    if (!a.object || !a.namespace || a.resource.group !== '' || a.resource.plural !== 'pods') return;
    const pod = a.object;
    const spec = pod.spec ?? {};
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      const sa = this.podAccount(a, spec);
      const why = enforcesMountableSecrets(sa) ? secretReferenceError(sa, { ephemeralContainers: spec.ephemeralContainers }) : undefined;
      if (why) throw admissionForbidden(a, why);
      return;
    }
    if (a.operation !== 'CREATE' || !isPodCreateOrUpdate(a.resource, a.subresource)) return;
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
      const sa = this.podAccount(a, spec);
      const why = enforcesMountableSecrets(sa) ? secretReferenceError(sa, spec) : undefined;
      if (why) throw admissionForbidden(a, why);
      return;
    }
    if (spec.serviceAccountName) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
    for (const v of (spec.volumes ?? []) as KubeObject[]) {
      if (v.secret) throw admissionForbidden(a, `a mirror pod may not reference secrets`);
      if ((v.projected?.sources as KubeObject[] | undefined)?.some((s) => s.serviceAccountToken)) {
        throw admissionForbidden(a, `a mirror pod may not use ServiceAccountToken volume projections`);
      }
    }
  }

  /** The pod's account, which admission made sure of (a mutating webhook may still have taken it away). */
  private podAccount(a: AdmissionAttributes, spec: Record<string, any>): KubeObject {
    const name = spec.serviceAccountName as string | undefined;
    if (!name) throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${a.object?.metadata?.name ?? ''}`);
    const sa = this.deps.get('', 'serviceaccounts', a.namespace, name);
    if (!sa) throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
    return sa;
  }

  /**
   * As upstream's getServiceAccount: a miss is looked up again (the watch cache may not have caught up with an account
   * created a moment ago), and "default" up to 10 times 100-200 ms apart, since the serviceaccount controller creates
   * it in a new namespace a moment after the namespace appears.
   */
  private async serviceAccount(a: AdmissionAttributes, namespace: string, name: string): Promise<KubeObject> {
    const retries = name === DEFAULT_SERVICE_ACCOUNT ? DEFAULT_ACCOUNT_RETRIES : 1;
    const retryMs = 100 + Math.floor(Math.random() * 100);
    let found = this.deps.get('', 'serviceaccounts', namespace, name);
    for (let i = 0; !found && i < retries; i++) {
      await new Promise((r) => setTimeout(r, retryMs));
      found = this.deps.get('', 'serviceaccounts', namespace, name);
    }
    if (found) return found;
    throw admissionForbidden(a, `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`);
  }
}

const shouldAutomount = (sa: KubeObject, spec: KubeObject): boolean => {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
};

function mountToken(spec: KubeObject): void {
  const volumes = (Array.isArray(spec.volumes) ? spec.volumes : []) as KubeObject[];
  const containers = ['initContainers', 'containers'].flatMap((k) => (Array.isArray(spec[k]) ? spec[k] : []) as KubeObject[]);
  const needs = containers.filter((c) => !((c.volumeMounts ?? []) as Mount[]).some((m) => m.mountPath === TOKEN_MOUNT_PATH));
  if (needs.length === 0) return;
  // Upstream reuses a kube-api-access volume the pod already has (a pod spec copied from another pod).
  let name = volumes.find((v) => typeof v.name === 'string' && v.name.startsWith('kube-api-access-') && v.projected)?.name as string | undefined;
  if (!name) {
    const taken = new Set(volumes.map((v) => v.name));
    do name = generateName('kube-api-access-'); while (taken.has(name));
    spec.volumes = [...volumes, projectedTokenVolume(name)];
  }
  for (const c of needs) c.volumeMounts = [...((c.volumeMounts ?? []) as Mount[]), { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
}

/** The account's kubernetes.io/enforce-mountable-secrets annotation, read as Go's ParseBool. */
const enforcesMountableSecrets = (sa: KubeObject): boolean =>
  ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(sa.metadata?.annotations?.['kubernetes.io/enforce-mountable-secrets'] ?? '');

type Container = { name: string; env?: { name: string; valueFrom?: { secretKeyRef?: { name: string } } }[]; envFrom?: { secretRef?: { name: string } }[] };

/** Upstream's limitSecretReferences: the first secret the pod uses that its account does not list, worded as upstream's. */
function secretReferenceError(sa: KubeObject, spec: Record<string, any>): string | undefined {
  const account = sa.metadata!.name!;
  const mountable = new Set(((sa.secrets ?? []) as { name?: string }[]).map((r) => r.name));
  const notListed = `is not allowed because service account ${account} does not reference that secret`;
  for (const v of (spec.volumes ?? []) as { secret?: { secretName?: string } }[]) {
    if (v.secret && !mountable.has(v.secret.secretName)) return `volume with secret.secretName="${v.secret.secretName ?? ''}" ${notListed}`;
  }
  for (const [field, what] of [['initContainers', 'init container'], ['containers', 'container'], ['ephemeralContainers', 'ephemeral container']] as const) {
    for (const c of (spec[field] ?? []) as Container[]) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef?.name;
        if (ref !== undefined && !mountable.has(ref)) return `${what} ${c.name} with envVar ${e.name} referencing secret.secretName="${ref}" ${notListed}`;
      }
      for (const e of c.envFrom ?? []) {
        const ref = e.secretRef?.name;
        if (ref !== undefined && !mountable.has(ref)) return `${what} ${c.name} with envFrom referencing secret.secretName="${ref}" ${notListed}`;
      }
    }
  }
  const pullable = new Set(((sa.imagePullSecrets ?? []) as { name?: string }[]).map((r) => r.name));
  for (const [i, r] of ((spec.imagePullSecrets ?? []) as { name?: string }[]).entries()) {
    if (!pullable.has(r.name)) return `imagePullSecrets[${i}].name="${r.name ?? ''}" is not allowed because service account ${account} does not reference that imagePullSecret`;
  }
  return undefined;
}
