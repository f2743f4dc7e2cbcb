// The tokens controller (upstream pkg/controller/serviceaccount/tokens_controller.go; it runs when the
// controller-manager has --service-account-private-key-file): a Secret of type kubernetes.io/service-account-token
// that a user makes for an account gets that account's legacy token, the cluster CA and its namespace, and the
// account's uid annotation (what `kubectl describe sa` lists as Tokens); a token Secret whose account is gone, or is
// another account of that name now, is deleted, and an account's tokens go with it.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { KubeObject } from '../../../api/types.js';
import {
  isTokenOf, SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_SECRET_TYPE, SERVICE_ACCOUNT_UID_ANNOTATION, signLegacyToken,
} from '../../apimachinery/legacy-service-account-token.js';
import { isConflict, isNotFound, Resources } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

export async function startTokensController(ctx: ClusterControllerContext): Promise<void> {
  const pem = ctx.config.serviceAccountPrivateKeyPem;
  if (!pem) {
    ctx.logger.warn('disabled: no --service-account-private-key-file to sign tokens with');
    return;
  }
  const privateKey = createPrivateKey(pem);
  const keys = { privateKey, publicKey: createPublicKey(privateKey) };
  const rootCa = ctx.config.rootCaPem ? b64(ctx.config.rootCaPem) : undefined;
  const accounts = ctx.informers.informerFor(Resources.serviceAccounts);
  const secrets = ctx.informers.informerFor(Resources.secrets);
  const saLister = accounts.lister();
  const secretLister = secrets.lister();
  const loop = workerLoop(ctx, 'serviceaccount-token-controller', sync);

  const onSecret = (s: KubeObject): void => { if (s.type === SERVICE_ACCOUNT_TOKEN_SECRET_TYPE) loop.enqueue(s); };
  secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_old, s) => onSecret(s) });
  // an account's tokens are looked at again when it goes: their sync finds it gone and deletes them
  accounts.addEventHandler({
    onDelete: (o) => {
      const sa = objOf(o);
      for (const s of secretLister.namespace(sa.metadata!.namespace!).list()) if (isTokenOf(s, sa)) loop.enqueue(s);
    },
  });

  /** The token's account (the cache first, then the apiserver: a Secret made right after its account may come first). */
  async function accountOf(secret: KubeObject): Promise<KubeObject | undefined> {
    const ns = secret.metadata!.namespace!;
    const annotations = secret.metadata?.annotations ?? {};
    const name = annotations[SERVICE_ACCOUNT_NAME_ANNOTATION];
    if (!name) return undefined;
    let sa = saLister.namespace(ns).get(name);
    if (!sa) {
      try {
        sa = await ctx.client.serviceAccounts(ns).get(name, { signal: ctx.signal });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    const uid = annotations[SERVICE_ACCOUNT_UID_ANNOTATION];
    return sa && !sa.metadata?.deletionTimestamp && (!uid || uid === sa.metadata?.uid) ? sa : undefined;
  }

  async function sync(key: string): Promise<void> {
    const secret = secretLister.get(key);
    if (!secret || secret.type !== SERVICE_ACCOUNT_TOKEN_SECRET_TYPE) return;
    const sa = await accountOf(secret);
    const { namespace, name, uid } = secret.metadata!;
    if (!sa) {
      ctx.logger.debug({ secret: key }, 'the token\'s service account does not exist: deleting it');
      try {
        await ctx.client.secrets(namespace!).delete(name!, { signal: ctx.signal, ...(uid ? { preconditions: { uid } } : {}) });
      } catch (e) {
        if (!isNotFound(e) && !isConflict(e)) throw e;
      }
      return;
    }
    if (!updateNeeded(secret)) return;
    // filled into the live Secret, and only if the cache has its latest version (a newer one comes as an event)
    const live = await ctx.client.secrets(namespace!).get(name!, { signal: ctx.signal }).catch((e: unknown) => {
      if (isNotFound(e)) return undefined;
      throw e;
    });
    if (!live || live.metadata?.resourceVersion !== secret.metadata?.resourceVersion || !updateNeeded(live)) return;
    try {
      await ctx.client.secrets(namespace!).update(await filled(live, sa, keys), { signal: ctx.signal });
    } catch (e) {
      if (!isNotFound(e)) throw e; // a conflict is retried
    }
  }

  function updateNeeded(secret: KubeObject): boolean {
    const data = (secret.data ?? {}) as Record<string, string>;
    return (rootCa !== undefined && data['ca.crt'] !== rootCa) || !data.namespace || !data.token;
  }

  async function filled(secret: KubeObject, sa: KubeObject, k: { privateKey: KeyObject; publicKey: KeyObject }): Promise<KubeObject> {
    const data = { ...((secret.data ?? {}) as Record<string, string>) };
    if (rootCa !== undefined) data['ca.crt'] = rootCa;
    data.namespace ||= b64(secret.metadata!.namespace!);
    data.token ||= b64(await signLegacyToken(k.privateKey, k.publicKey, sa, secret.metadata!.name!));
    const annotations = { ...secret.metadata?.annotations, [SERVICE_ACCOUNT_NAME_ANNOTATION]: sa.metadata!.name!, [SERVICE_ACCOUNT_UID_ANNOTATION]: sa.metadata!.uid! };
    return { ...secret, metadata: { ...secret.metadata, annotations }, data };
  }

  await loop.run();
}
