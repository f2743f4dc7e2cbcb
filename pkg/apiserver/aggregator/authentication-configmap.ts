// The kube-system/extension-apiserver-authentication ConfigMap (upstream: the apiserver's
// ClusterAuthenticationInfo controller): how extension apiservers learn which CA signs client certificates and
// which front proxy (with which headers) to believe. Written at start, kept as the flags say.
import { readFile } from 'node:fs/promises';
import type { KubeObject } from '../../../api/types.js';
import type { RequestHeaderFlags } from '../../authentication/index.js';
import { systemContext, type RequestContext } from '../../registry/context.js';
import { create } from '../../registry/generic/create.js';
import { update } from '../../registry/generic/update.js';
import type { RegistrySet } from '../../registry/index.js';

export const AUTHENTICATION_CONFIGMAP = { namespace: 'kube-system', name: 'extension-apiserver-authentication' };

export async function authenticationConfigMap(clientCaFile: string | undefined, rh: RequestHeaderFlags | undefined): Promise<KubeObject> {
  const data: Record<string, string> = {};
  if (clientCaFile) data['client-ca-file'] = await readFile(clientCaFile, 'utf8');
  if (rh) {
    data['requestheader-client-ca-file'] = await readFile(rh.clientCaFile, 'utf8');
    // Upstream stores the lists as JSON arrays.
    data['requestheader-allowed-names'] = JSON.stringify(rh.allowedNames);
    data['requestheader-username-headers'] = JSON.stringify(rh.usernameHeaders);
    if (rh.uidHeaders?.length) data['requestheader-uid-headers'] = JSON.stringify(rh.uidHeaders);
    data['requestheader-group-headers'] = JSON.stringify(rh.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(rh.extraHeadersPrefix);
  }
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...AUTHENTICATION_CONFIGMAP }, data };
}

const ctx = (): RequestContext => systemContext(AUTHENTICATION_CONFIGMAP.namespace);

/** Creates the ConfigMap, or sets its data when it differs (the flags changed since the last start). */
export async function publishAuthenticationConfigMap(registries: RegistrySet, cm: KubeObject): Promise<void> {
  const reg = registries.get('', 'v1', 'configmaps')!;
  const current = reg.peek(AUTHENTICATION_CONFIGMAP.namespace, AUTHENTICATION_CONFIGMAP.name)?.object;
  if (!current) {
    await create(reg, ctx(), cm);
    return;
  }
  if (JSON.stringify(current.data ?? {}) === JSON.stringify(cm.data)) return;
  await update(reg, ctx(), { name: AUTHENTICATION_CONFIGMAP.name, build: (cur) => ({ ...cur!, data: cm.data }) });
}
