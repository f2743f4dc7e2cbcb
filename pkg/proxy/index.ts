// `mini-kube proxy`: Services made reachable, as kube-proxy makes them, by a proxy in user space (kube-proxy had such a
// mode until 1.26): it watches Services and EndpointSlices and listens on every ClusterIP (made an address of the
// host) and NodePort, forwarding each connection or UDP flow to a ready endpoint; and answers the health checks of
// LoadBalancer Services that keep traffic on the node it arrives at (health-checks.ts). It watches the Nodes too: one
// proxy serves all the nodes of its host, and their pod ranges and addresses tell which node a connection is local to
// (node-topology.ts).
import type { Logger } from 'pino';
import type { KubeObject } from '../../api/types.js';
import { Resources, SharedInformerFactory, type Client } from '../client/index.js';
import { Proxier } from './proxier.js';
import { ServiceAddresses, serviceLinkName } from './service-addresses.js';
import { HealthCheckServers } from './health-checks.js';
import { hostAddresses, NodeTopology, placementOf } from './node-topology.js';
import { healthChecks, servicePorts } from './service-map.js';

export { Proxier } from './proxier.js';
export { healthChecks, servicePorts, type ServicePortEntry } from './service-map.js';

export interface ProxyOptions {
  client: Client;
  /**
   * This node (--hostname-override): its endpoints are the "Local" ones for traffic no other node's pod range or
   * address claims (node-topology.ts).
   */
  node: string;
  nodePortAddresses: string[];
  /** Make ClusterIPs host addresses (root and iproute2); false serves NodePorts only. */
  bindClusterIPs: boolean;
  logger: Logger;
  /** Full resync period (kube-proxy's --iptables-sync-period): retries what failed. */
  syncPeriodMs?: number;
}

export interface RunningProxy {
  /** Resolves once the first sync is done. */
  ready: Promise<void>;
  /** ClusterIPs are served (their addresses were made the host's); false: NodePorts only. */
  clusterIPs: boolean;
  proxier: Proxier;
  /** The health check node ports served (LoadBalancer Services with externalTrafficPolicy Local). */
  healthChecks: HealthCheckServers;
  stop(): Promise<void>;
}

export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  let addresses: ServiceAddresses | undefined;
  if (o.bindClusterIPs) {
    try {
      addresses = await ServiceAddresses.open(serviceLinkName(o.client.rest.config.host));
    } catch (err) {
      o.logger.warn({ err }, 'ClusterIPs are not reachable: their addresses cannot be added to the host (run as root with iproute2); serving NodePorts only');
    }
  }
  let topology = new NodeTopology([], o.node, []);
  const proxier = new Proxier({ addresses, nodePortAddresses: o.nodePortAddresses, topology: () => topology, logger: o.logger });
  const checks = new HealthCheckServers({ addresses: o.nodePortAddresses, topology: () => topology, logger: o.logger });
  const factory = new SharedInformerFactory(o.client);
  const services = factory.informerFor<KubeObject>(Resources.services);
  const slices = factory.informerFor<KubeObject>(Resources.endpointSlices);
  const nodes = factory.informerFor<KubeObject>(Resources.nodes);
  const ac = new AbortController();

  // One sync at a time; changes during a sync are picked up by one more after it.
  let running: Promise<void> | undefined;
  let again = false;
  const sync = (): void => {
    if (running) { again = true; return; }
    again = false;
    const [svcs, eps] = [services.indexer.list(), slices.indexer.list()];
    topology = new NodeTopology(nodes.indexer.list(), o.node, hostAddresses());
    running = Promise.all([proxier.sync(servicePorts(svcs, eps)), checks.sync(healthChecks(svcs, eps))]).then(() => undefined)
      .catch((err: unknown) => o.logger.error({ err }, 'sync failed'))
      .finally(() => { running = undefined; if (again) sync(); });
  };
  const onChange = { onAdd: sync, onUpdate: sync, onDelete: sync };
  services.addEventHandler(onChange);
  slices.addEventHandler(onChange);
  // a Node's status is written often; only its pod ranges and addresses matter here
  nodes.addEventHandler({ onAdd: sync, onDelete: sync, onUpdate: (was, is) => { if (placementOf(was) !== placementOf(is)) sync(); } });
  factory.start(ac.signal);
  const timer = setInterval(sync, o.syncPeriodMs ?? 30_000);
  timer.unref();
  const ready = (async () => {
    if (!(await factory.waitForCacheSync(ac.signal))) return;
    sync();
    while (running) await running;
    o.logger.info({ listening: proxier.listening().length, clusterIPs: !!addresses }, 'services proxied');
  })();
  return {
    ready,
    clusterIPs: !!addresses,
    proxier,
    healthChecks: checks,
    stop: async () => {
      clearInterval(timer);
      ac.abort();
      while (running) await running;
      await proxier.close();
      checks.close();
      await addresses?.close();
    },
  };
}
