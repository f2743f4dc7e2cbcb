// The root CA publisher (upstream pkg/controller/certificates/rootcacertpublisher): every active namespace has a
// ConfigMap kube-root-ca.crt whose ca.crt is the cluster CA, so pods can verify the apiserver. A missing one is
// created, one with other contents is updated back, and nothing else is touched.
import { Resources, isAlreadyExists, type KubeObject } from '../../client/index.js';
import { isGoneOrTerminating } from '../shared/errors.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export async function startRootCaCertPublisher(ctx: ClusterControllerContext): Promise<void> {
  const rootCa = ctx.config.rootCaPem;
  if (!rootCa) {
    ctx.logger.warn('no root CA (neither --root-ca-file nor certificate-authority-data in the kubeconfig): not publishing');
    return;
  }
  const namespaces = ctx.informers.informerFor(Resources.namespaces);
  const configMaps = ctx.informers.informerFor(Resources.configMaps);
  const nsLister = namespaces.lister();
  const cmLister = configMaps.lister();
  const loop = workerLoop(ctx, 'root-ca-certificate-publisher-controller', sync);

  namespaces.addEventHandler({ onAdd: (ns) => loop.enqueue(ns), onUpdate: (_o, ns) => loop.enqueue(ns) });
  const onConfigMap = (cm: KubeObject): void => { if (cm.metadata?.name === ROOT_CA_CONFIGMAP) loop.queue.add(cm.metadata.namespace!); };
  configMaps.addEventHandler({ onUpdate: (_o, cm) => onConfigMap(cm), onDelete: (o) => onConfigMap(objOf(o)) });

  async function sync(ns: string): Promise<void> {
    const namespace = nsLister.get(ns);
    if (!namespace || namespace.metadata?.deletionTimestamp || namespace.status?.phase === 'Terminating') return;
    const client = ctx.client.configMaps(ns);
    const cm = cmLister.namespace(ns).get(ROOT_CA_CONFIGMAP);
    try {
      if (!cm) {
        await client.create({
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, namespace: ns, annotations: { 'kubernetes.io/description': DESCRIPTION } },
          data: { 'ca.crt': rootCa! },
        }, { signal: ctx.signal });
        return;
      }
      const data = (cm.data ?? {}) as Record<string, string>;
      const annotations = cm.metadata?.annotations ?? {};
      if (data['ca.crt'] === rootCa && Object.keys(data).length === 1 && annotations['kubernetes.io/description'] === DESCRIPTION) return;
      const updated = cloneJson(cm);
      updated.data = { 'ca.crt': rootCa };
      updated.metadata!.annotations = { ...annotations, 'kubernetes.io/description': DESCRIPTION };
      await client.update(updated, { signal: ctx.signal });
    } catch (e) {
      if (isAlreadyExists(e) || isGoneOrTerminating(e)) return; // raced, or the namespace is terminating
      throw e;
    }
  }

  await loop.run();
}
