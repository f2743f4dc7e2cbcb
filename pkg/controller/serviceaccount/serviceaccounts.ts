// The ServiceAccount controller (upstream pkg/controller/serviceaccount/serviceaccounts_controller.go): every
// active namespace has a ServiceAccount "default". It only creates what is missing, so it coexists with anyone
// else creating it (an admin, a second controller-manager).
import { Resources, isAlreadyExists, type KubeObject } from '../../client/index.js';
import { isGoneOrTerminating } from '../shared/errors.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

export const DEFAULT_SERVICE_ACCOUNTS = ['default'];

export async function startServiceAccountController(ctx: ClusterControllerContext): Promise<void> {
  const namespaces = ctx.informers.informerFor(Resources.namespaces);
  const accounts = ctx.informers.informerFor(Resources.serviceAccounts);
  const nsLister = namespaces.lister();
  const saLister = accounts.lister();
  const loop = workerLoop(ctx, 'serviceaccount-controller', sync);

  namespaces.addEventHandler({
    onAdd: (ns) => loop.enqueue(ns),
    onUpdate: (_old, ns) => loop.enqueue(ns),
  });
  // A deleted default account is re-created: queue its namespace.
  accounts.addEventHandler({
    onDelete: (o) => {
      const sa = objOf(o);
      if (DEFAULT_SERVICE_ACCOUNTS.includes(sa.metadata!.name!)) loop.queue.add(sa.metadata!.namespace!);
    },
  });

  async function sync(key: string): Promise<void> {
    const ns = nsLister.get(key);
    if (!ns || ns.status?.phase !== 'Active' || ns.metadata?.deletionTimestamp) return;
    for (const name of DEFAULT_SERVICE_ACCOUNTS) {
      if (saLister.namespace(key).get(name)) continue;
      const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: key } };
      try {
        await ctx.client.serviceAccounts(key).create(sa, { signal: ctx.signal });
        ctx.logger.debug({ namespace: key, name }, 'created service account');
      } catch (e) {
        // Already there (someone else made it), or the namespace is going away: nothing to do.
        if (isAlreadyExists(e) || isGoneOrTerminating(e)) continue;
        throw e;
      }
    }
  }

  await loop.run();
}

