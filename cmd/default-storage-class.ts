// `up` gives a new cluster a default StorageClass, as kind and minikube do: `standard`, served by the
// controller-manager's mini-kube.io/hostpath provisioner, bound when the first pod is scheduled. An existing
// one (or the user's own default) is left as it is.
import { Agent, request } from 'undici';

export const DEFAULT_STORAGE_CLASS = {
  apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'mini-kube.io/hostpath', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer',
};

/** Creates the default StorageClass unless some StorageClass exists; returns whether it did. */
export const ensureDefaultStorageClass = async (p: { server: string; ca: string; cert: string; key: string }): Promise<boolean> => {
  const agent = new Agent({ connect: { ca: p.ca, cert: p.cert, key: p.key } });
  const url = `${p.server}/apis/storage.k8s.io/v1/storageclasses`;
  try {
    const list = await request(`${url}?limit=1`, { dispatcher: agent });
    const body = await list.body.json() as { items?: unknown[] };
    if (list.statusCode !== 200) throw new Error(`listing StorageClasses: HTTP ${list.statusCode}`);
    if (body.items?.length) return false;
    const res = await request(url, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEFAULT_STORAGE_CLASS) });
    await res.body.dump();
    if (res.statusCode !== 201 && res.statusCode !== 409) throw new Error(`creating the default StorageClass: HTTP ${res.statusCode}`);
    return res.statusCode === 201;
  } finally {
    await agent.close();
  }
};
