// The bootstrap signer (upstream pkg/controller/bootstrap/bootstrapsigner.go; off unless --controllers names it, as
// kubeadm's `--controllers=*,bootstrapsigner,tokencleaner` does): the ConfigMap kube-public/cluster-info carries, beside
// its `kubeconfig`, one `jws-kubeconfig-<id>` per bootstrap token marked usage-bootstrap-signing: a detached JWS of the
// kubeconfig with the token's secret, by which `kubeadm join --discovery-token` trusts what it read anonymously. Any
// change of the ConfigMap or of a token Secret in kube-system re-signs it; a signature whose token is gone, expired or
// no longer for signing is removed. Not upstream's: a token's expiry also re-signs (upstream waits for the token
// cleaner to delete the Secret).
import type { KubeObject } from '../../../api/types.js';
import {
  BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_TYPE, CLUSTER_INFO_CONFIGMAP, CLUSTER_INFO_KUBECONFIG_KEY, CLUSTER_INFO_NAMESPACE,
  JWS_SIGNATURE_KEY_PREFIX, detachedSignature, signingToken, tokenExpiration,
} from '../../apimachinery/bootstrap-token.js';
import { isConflict, isNotFound, realClock, Resources } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { delayUntil } from './expiry.js';

const KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_CONFIGMAP}`;

const isTokenSecret = (s: KubeObject): boolean => s.type === BOOTSTRAP_TOKEN_SECRET_TYPE && s.metadata?.namespace === BOOTSTRAP_TOKEN_NAMESPACE;

/**
 * The data the ConfigMap should have: its own, without signatures of tokens that may not sign, with one signature per
 * token that may; undefined when it has no kubeconfig to sign. `nextExpiry` is the soonest expiry of a signing token.
 */
export function signedClusterInfo(data: Record<string, string>, secrets: KubeObject[], now: number): { data: Record<string, string>; nextExpiry?: number } | undefined {
  const content = data[CLUSTER_INFO_KUBECONFIG_KEY];
  if (content === undefined) return undefined;
  const out = Object.fromEntries(Object.entries(data).filter(([k]) => !k.startsWith(JWS_SIGNATURE_KEY_PREFIX)));
  let nextExpiry: number | undefined;
  for (const s of secrets) {
    if (!isTokenSecret(s)) continue;
    const token = signingToken(s, now);
    // the same id twice cannot happen (the name carries it): the first wins, as upstream's
    if (!token || out[JWS_SIGNATURE_KEY_PREFIX + token.id] !== undefined) continue;
    out[JWS_SIGNATURE_KEY_PREFIX + token.id] = detachedSignature(content, token.id, token.secret);
    const { expiresAt } = tokenExpiration(s, now);
    if (expiresAt !== undefined && (nextExpiry === undefined || expiresAt < nextExpiry)) nextExpiry = expiresAt;
  }
  return { data: out, nextExpiry };
}

const sameData = (a: Record<string, string>, b: Record<string, string>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

export async function startBootstrapSigner(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const configMaps = ctx.informers.informerFor(Resources.configMaps);
  const secrets = ctx.informers.informerFor(Resources.secrets);
  const cmLister = configMaps.lister();
  const secretLister = secrets.lister();
  const loop = workerLoop(ctx, 'bootstrap-signer-controller', sync);
  // one key: every event collapses into one re-signing of cluster-info
  const poke = (): void => loop.queue.add(KEY);
  const onConfigMap = (cm: KubeObject): void => { if (cm.metadata?.namespace === CLUSTER_INFO_NAMESPACE && cm.metadata.name === CLUSTER_INFO_CONFIGMAP) poke(); };
  configMaps.addEventHandler({ onAdd: onConfigMap, onUpdate: (_o, cm) => onConfigMap(cm) });
  const onSecret = (s: KubeObject): void => { if (isTokenSecret(s)) poke(); };
  secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s), onDelete: (o) => onSecret(objOf(o)) });

  async function sync(): Promise<void> {
    const cm = cmLister.namespace(CLUSTER_INFO_NAMESPACE).get(CLUSTER_INFO_CONFIGMAP);
    if (!cm) return;
    const data = (cm.data ?? {}) as Record<string, string>;
    const now = clock.now();
    const signed = signedClusterInfo(data, secretLister.namespace(BOOTSTRAP_TOKEN_NAMESPACE).list(), now);
    if (!signed) {
      ctx.logger.debug({ configMap: KEY }, `no ${CLUSTER_INFO_KUBECONFIG_KEY} key in the ConfigMap: nothing to sign`);
      return;
    }
    if (signed.nextExpiry !== undefined) loop.enqueueAfter(KEY, delayUntil(signed.nextExpiry, now));
    if (sameData(signed.data, data)) return;
    try {
      await ctx.client.configMaps(CLUSTER_INFO_NAMESPACE).update({ ...cm, data: signed.data }, { signal: ctx.signal });
    } catch (e) {
      // a newer ConfigMap comes through the informer and is signed then; a deleted one needs nothing
      if (!isConflict(e) && !isNotFound(e)) throw e;
    }
  }

  await loop.run();
}
