// The token cleaner (upstream pkg/controller/bootstrap/tokencleaner.go; off unless --controllers names it): a bootstrap
// token Secret in kube-system is deleted once its `expiration` has passed (or is unreadable), with its uid as
// precondition so that a Secret made again under the same name is left alone; one that has yet to expire is looked at
// again at its expiration.
import { BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_TYPE, tokenExpiration } from '../../apimachinery/bootstrap-token.js';
import type { KubeObject } from '../../../api/types.js';
import { isConflict, isNotFound, realClock, Resources } from '../../client/index.js';
import { workerLoop } from '../shared/controller-utils.js';
import { delayUntil } from './expiry.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

export async function startTokenCleaner(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const secrets = ctx.informers.informerFor(Resources.secrets);
  const lister = secrets.lister();
  const loop = workerLoop(ctx, 'token-cleaner-controller', sync);
  const onSecret = (s: KubeObject): void => {
    if (s.type === BOOTSTRAP_TOKEN_SECRET_TYPE && s.metadata?.namespace === BOOTSTRAP_TOKEN_NAMESPACE) loop.enqueue(s);
  };
  secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s) });

  async function sync(key: string): Promise<void> {
    const secret = lister.get(key);
    if (!secret || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return;
    const { expired, expiresAt } = tokenExpiration(secret, clock.now());
    if (!expired) {
      if (expiresAt !== undefined) loop.enqueueAfter(key, delayUntil(expiresAt, clock.now()));
      return;
    }
    const { namespace, name, uid } = secret.metadata!;
    ctx.logger.info({ secret: key }, 'deleting expired bootstrap token secret');
    try {
      await ctx.client.secrets(namespace!).delete(name!, { signal: ctx.signal, ...(uid ? { preconditions: { uid } } : {}) });
    } catch (e) {
      // already gone, or another Secret of that name by now (the uid precondition failed)
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }

  await loop.run();
}
