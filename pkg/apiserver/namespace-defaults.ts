// Stop-gap for two controller-manager controllers that do not exist yet: the serviceaccount controller (a "default"
// ServiceAccount in every namespace) and the root-ca-cert-publisher (a kube-root-ca.crt ConfigMap holding the cluster
// CA in every namespace). The apiserver does both, for every namespace at start and for each namespace as it is
// created. Remove this module once those controllers run (and the ServiceAccount admission plugin's on-demand branch).
import type { KubeObject } from '../../api/types.js';
import { isStatusError } from '../apimachinery/errors.js';
import type { RequestContext } from '../registry/context.js';
import { create } from '../registry/generic/create.js';
import type { RegistrySet } from '../registry/index.js';
import { listPrefix, resourcePrefix } from '../registry/keys.js';

const systemContext = (namespace: string): RequestContext => ({
  namespace,
  user: { name: 'system:apiserver', groups: ['system:masters'] },
  dryRun: false,
  fieldManager: 'kube-apiserver',
  fieldValidation: 'Ignore',
  warnings: [],
  now: new Date(),
});

export interface NamespaceDefaults {
  /** Creates what a namespace lacks (idempotent). */
  ensure(namespace: string): Promise<void>;
  stop(): void;
}

export async function startNamespaceDefaults(registries: RegistrySet, caPem: string | undefined, onError: (err: unknown, msg: string) => void): Promise<NamespaceDefaults> {
  const namespaces = registries.get('', 'v1', 'namespaces')!;
  const serviceAccounts = registries.get('', 'v1', 'serviceaccounts')!;
  const configMaps = registries.get('', 'v1', 'configmaps')!;

  const ensureOne = async (reg: typeof serviceAccounts, namespace: string, obj: KubeObject): Promise<void> => {
    if (reg.peek(namespace, obj.metadata!.name!)) return;
    const ns = namespaces.peek(undefined, namespace)?.object;
    if (!ns || ns.metadata?.deletionTimestamp) return;
    try {
      await create(reg, systemContext(namespace), obj);
    } catch (e) {
      // Already there, or the namespace went away meanwhile: nothing to do.
      if (isStatusError(e) && (e.reason === 'AlreadyExists' || e.code === 403 || e.code === 404)) return;
      throw e;
    }
  };

  const ensure = async (namespace: string): Promise<void> => {
    await ensureOne(serviceAccounts, namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
    if (caPem) {
      await ensureOne(configMaps, namespace, {
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt', namespace, annotations: { 'kubernetes.io/description': 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.' } },
        data: { 'ca.crt': caPem },
      });
    }
  };
  const ensureLogged = (namespace: string): void => {
    ensure(namespace).catch((err: unknown) => onError(err, `default objects of namespace ${namespace}`));
  };

  const cacher = namespaces.deps.cacher;
  const unwatch = cacher.watch(
    { prefix: resourcePrefix(namespaces.rt), fromRevision: cacher.revision(), sendInitialEvents: false },
    { onEvent: (ev) => { if (ev.type === 'ADDED') ensureLogged(ev.kv.object.metadata!.name!); }, onClose: () => {} },
  );
  for (const kv of cacher.list({ prefix: listPrefix(namespaces.rt, undefined) }).items) await ensure(kv.object.metadata!.name!);
  return { ensure, stop: unwatch };
}
