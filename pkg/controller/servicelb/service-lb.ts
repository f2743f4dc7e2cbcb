// LoadBalancer Services get an address, as a cloud provider's service controller gives them one (upstream's
// service-lb-controller, which kube-controller-manager runs only with a cloud provider; a local cluster's is k3s's
// ServiceLB): a Service of type LoadBalancer without a loadBalancerClass gets the InternalIPs of the Ready nodes as
// status.loadBalancer.ingress, and the service proxy (pkg/proxy) serves its ports there. As upstream's controller:
// the finalizer service.kubernetes.io/load-balancer-cleanup while it has a load balancer, and the events
// EnsuringLoadBalancer, EnsuredLoadBalancer, SyncLoadBalancerFailed, DeletingLoadBalancer and DeletedLoadBalancer.
// A port that another Service's load balancer already serves on those addresses fails the sync: that Service stays
// <pending> until the port is free, as it does under k3s.
import { Resources, isNotFound, type KubeObject } from '../../client/index.js';
import { cloneJson } from '../../apimachinery/json-clone.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

export const LOAD_BALANCER_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

interface Ingress { ip: string; ipMode: 'VIP' }
interface Port { port: number; protocol?: string }

const isReady = (node: KubeObject): boolean =>
  ((node.status?.conditions ?? []) as { type: string; status: string }[]).some((c) => c.type === 'Ready' && c.status === 'True');
const internalIPs = (node: KubeObject): string[] =>
  ((node.status?.addresses ?? []) as { type: string; address: string }[]).filter((a) => a.type === 'InternalIP' && !a.address.includes(':')).map((a) => a.address);
/** What of a node decides the addresses: its readiness and its InternalIPs. */
const addressFacts = (node: KubeObject): string => JSON.stringify([isReady(node), internalIPs(node), !!node.spec?.unschedulable]);

const wantsLoadBalancer = (svc: KubeObject): boolean =>
  svc.spec?.type === 'LoadBalancer' && !svc.spec?.loadBalancerClass && !svc.metadata?.deletionTimestamp;
const ingressOf = (svc: KubeObject): { ip?: string }[] => svc.status?.loadBalancer?.ingress ?? [];
const portKeys = (svc: KubeObject): string[] => ((svc.spec?.ports ?? []) as Port[]).map((p) => `${p.protocol ?? 'TCP'}/${p.port}`);

export async function startServiceLbController(ctx: ClusterControllerContext): Promise<void> {
  const services = ctx.informers.informerFor(Resources.services);
  const nodes = ctx.informers.informerFor(Resources.nodes);
  const svcLister = services.lister();
  const nodeLister = nodes.lister();
  const loop = workerLoop(ctx, 'service-lb-controller', sync);

  /** Every LoadBalancer Service again (the nodes changed, or a port may have come free). */
  const requeueLoadBalancers = (): void => {
    for (const s of svcLister.list()) if (s.spec?.type === 'LoadBalancer' || s.metadata?.finalizers?.includes(LOAD_BALANCER_FINALIZER)) loop.enqueue(s);
  };
  services.addEventHandler({
    onAdd: (s) => loop.enqueue(s),
    onUpdate: (old, s) => {
      loop.enqueue(s);
      if (ingressOf(old).length && !ingressOf(s).length) requeueLoadBalancers();
    },
    onDelete: (o) => { if (ingressOf(objOf(o)).length) requeueLoadBalancers(); },
  });
  nodes.addEventHandler({
    onAdd: requeueLoadBalancers,
    onUpdate: (old, n) => { if (addressFacts(old) !== addressFacts(n)) requeueLoadBalancers(); },
    onDelete: requeueLoadBalancers,
  });

  /** The Ready, schedulable nodes' InternalIPs, each once, in order. */
  const nodeAddresses = (): string[] =>
    [...new Set(nodeLister.list().filter((n) => isReady(n) && !n.spec?.unschedulable).flatMap(internalIPs))].sort();

  /** Another load balancer serving one of `svc`'s ports on one of `ips`, as "port 80/TCP of default/web". */
  const takenBy = (svc: KubeObject, ips: string[]): string | undefined => {
    const mine = new Set(portKeys(svc));
    for (const other of svcLister.list()) {
      if (other.metadata?.uid === svc.metadata?.uid || other.spec?.type !== 'LoadBalancer') continue;
      if (!ingressOf(other).some((i) => i.ip && ips.includes(i.ip))) continue;
      const shared = portKeys(other).find((k) => mine.has(k));
      if (shared) return `port ${shared.split('/')[1]!}/${shared.split('/')[0]!} is already served by the load balancer of ${other.metadata!.namespace!}/${other.metadata!.name!}`;
    }
    return undefined;
  };

  async function sync(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    const svc = svcLister.namespace(ns).get(name);
    if (!svc) return;
    const client = ctx.client.services(ns);
    const hasFinalizer = !!svc.metadata?.finalizers?.includes(LOAD_BALANCER_FINALIZER);
    try {
      if (!wantsLoadBalancer(svc)) {
        if (!hasFinalizer) return; // never ours (another loadBalancerClass's), or cleaned up already
        ctx.recorder.event(svc, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
        let current = svc;
        if (ingressOf(svc).length && !svc.metadata?.deletionTimestamp) {
          current = await client.updateStatus({ ...cloneJson(svc), status: { ...svc.status, loadBalancer: {} } }, { signal: ctx.signal });
        }
        if (hasFinalizer) {
          const next = cloneJson(current);
          next.metadata!.finalizers = next.metadata!.finalizers!.filter((f) => f !== LOAD_BALANCER_FINALIZER);
          await client.update(next, { signal: ctx.signal });
        }
        ctx.recorder.event(svc, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
        return;
      }
      if (!hasFinalizer) {
        // the finalizer first; the update brings the Service back here for its address
        const next = cloneJson(svc);
        next.metadata!.finalizers = [...(next.metadata!.finalizers ?? []), LOAD_BALANCER_FINALIZER];
        await client.update(next, { signal: ctx.signal });
        return;
      }
      const current = svc;
      const ips = nodeAddresses();
      const conflict = ips.length ? takenBy(current, ips) : 'no Ready node has an InternalIP';
      const want: Ingress[] = conflict ? [] : ips.map((ip) => ({ ip, ipMode: 'VIP' }));
      const have = ingressOf(current);
      if (conflict) ctx.recorder.event(current, 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: failed to ensure load balancer: ${conflict}`);
      if (JSON.stringify(have) === JSON.stringify(want)) return;
      if (!conflict) ctx.recorder.event(current, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
      await client.updateStatus({ ...cloneJson(current), status: { ...current.status, loadBalancer: want.length ? { ingress: want } : {} } }, { signal: ctx.signal });
      if (!conflict) ctx.recorder.event(current, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
    } catch (e) {
      if (isNotFound(e)) return; // deleted meanwhile
      throw e;
    }
  }

  await loop.run();
}
