// `mini-kube dns`: the cluster DNS (CoreDNS's place, with its kubernetes and forward plugins), answering the names
// of Services and their endpoints from watched Services, EndpointSlices and Namespaces.
import { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import { LABEL_SERVICE_NAME } from '../../api/discovery/v1/index.js';
import type { KubeObject } from '../../api/types.js';
import { Resources, SharedInformerFactory, type Client } from '../client/index.js';
import { clusterIPs, readyAddresses, type ClusterView } from './records.js';
import { DnsServer } from './server.js';

export { DnsServer } from './server.js';
export { lookup, type ClusterView } from './records.js';

const BY_SERVICE = 'service';
// PTR lookups by address: informer indexes, kept up to date object by object as the watch delivers changes
const BY_CLUSTER_IP = 'clusterIP';
const BY_ADDRESS = 'address';

/** The addresses a server listening on `host` answers at: every interface's for the unspecified address. */
const ownAddresses = (host: string): string[] => (host === '0.0.0.0' || host === '::'
  ? Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((i) => i.family === 'IPv4').map((i) => i.address))
  : [host]);

export interface DnsOptions {
  client: Client;
  zone: string;
  host: string;
  port: number;
  upstreams: { host: string; port: number }[];
  logger: Logger;
}

export interface RunningDns {
  port: number;
  stop(): Promise<void>;
}

export async function startDns(o: DnsOptions): Promise<RunningDns> {
  const factory = new SharedInformerFactory(o.client);
  const services = factory.informerFor<KubeObject>(Resources.services, { indexers: { [BY_CLUSTER_IP]: clusterIPs } });
  const slices = factory.informerFor<KubeObject>(Resources.endpointSlices, {
    indexers: {
      [BY_SERVICE]: (s) => { const svc = s.metadata?.labels?.[LABEL_SERVICE_NAME]; return svc ? [`${s.metadata?.namespace ?? ''}/${svc}`] : []; },
      [BY_ADDRESS]: (s) => (s.metadata?.labels?.[LABEL_SERVICE_NAME] ? [...new Set(readyAddresses(s))] : []),
    },
  });
  const namespaces = factory.informerFor<KubeObject>(Resources.namespaces);
  const zone = o.zone.replace(/\.$/, '').toLowerCase();
  const self = { addresses: ownAddresses(o.host), port: o.port };
  const view: ClusterView = {
    service: (ns, name) => services.indexer.getByKey(`${ns}/${name}`),
    slices: (ns, svc) => slices.indexer.byIndex(BY_SERVICE, `${ns}/${svc}`),
    servicesByIP: (ip) => services.indexer.byIndex(BY_CLUSTER_IP, ip),
    slicesByAddress: (ip) => slices.indexer.byIndex(BY_ADDRESS, ip),
    namespace: (name) => namespaces.indexer.getByKey(name) !== undefined,
    self: () => self,
  };
  const ac = new AbortController();
  factory.start(ac.signal);
  await factory.waitForCacheSync(ac.signal);
  const server = new DnsServer({ view, zone, upstreams: o.upstreams, logger: o.logger });
  const port = await server.listen(o.host, o.port);
  self.port = port;
  o.logger.info({ host: o.host, port, zone, upstreams: o.upstreams.map((u) => `${u.host}:${u.port}`) }, 'serving DNS');
  return {
    port,
    stop: async () => {
      server.close();
      ac.abort();
      await factory.shutdown();
    },
  };
}
