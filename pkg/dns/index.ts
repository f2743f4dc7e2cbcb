// `mini-kube dns`: the cluster DNS (CoreDNS's place, with its kubernetes and forward plugins), answering the names
// of Services and their endpoints from watched Services, EndpointSlices and Namespaces.
import type { Logger } from 'pino';
import { LABEL_SERVICE_NAME } from '../../api/discovery/v1/index.js';
import type { KubeObject } from '../../api/types.js';
import { Resources, SharedInformerFactory, type Client } from '../client/index.js';
import type { ClusterView } from './records.js';
import { DnsServer } from './server.js';

export { DnsServer } from './server.js';
export { lookup, type ClusterView } from './records.js';

const BY_SERVICE = 'service';

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
  const services = factory.informerFor<KubeObject>(Resources.services);
  const slices = factory.informerFor<KubeObject>(Resources.endpointSlices, {
    indexers: { [BY_SERVICE]: (s) => { const svc = s.metadata?.labels?.[LABEL_SERVICE_NAME]; return svc ? [`${s.metadata?.namespace ?? ''}/${svc}`] : []; } },
  });
  const namespaces = factory.informerFor<KubeObject>(Resources.namespaces);
  const zone = o.zone.replace(/\.$/, '').toLowerCase();
  // address → name, for PTR queries: rebuilt on the first lookup after a change
  let names: Map<string, string> | undefined;
  const changed = { onAdd: () => { names = undefined; }, onUpdate: () => { names = undefined; }, onDelete: () => { names = undefined; } };
  services.addEventHandler(changed);
  slices.addEventHandler(changed);
  const slicesOf = (ns: string, svc: string): KubeObject[] => slices.indexer.byIndex(BY_SERVICE, `${ns}/${svc}`);
  const view: ClusterView = {
    service: (ns, name) => services.indexer.getByKey(`${ns}/${name}`),
    slices: slicesOf,
    nameOf: (ip) => (names ??= addressNames(services.indexer.list(), slicesOf, zone)).get(ip),
    namespace: (name) => namespaces.indexer.getByKey(name) !== undefined,
  };
  const ac = new AbortController();
  factory.start(ac.signal);
  await factory.waitForCacheSync(ac.signal);
  const server = new DnsServer({ view, zone, upstreams: o.upstreams, logger: o.logger });
  const port = await server.listen(o.host, o.port);
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

/** ClusterIPs to their service's name, headless endpoints with a hostname to theirs. */
function addressNames(services: KubeObject[], slicesOf: (ns: string, svc: string) => KubeObject[], zone: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const svc of services) {
    const ns = svc.metadata?.namespace ?? '';
    const name = svc.metadata?.name ?? '';
    const base = `${name}.${ns}.svc.${zone}`;
    const ip = svc.spec?.clusterIP as string | undefined;
    if (ip && ip !== 'None') { out.set(ip, base); continue; }
    for (const slice of slicesOf(ns, name)) {
      for (const e of (slice.endpoints ?? []) as { addresses?: string[]; hostname?: string }[]) {
        if (e.hostname && e.addresses?.[0]) out.set(e.addresses[0], `${e.hostname}.${base}`);
      }
    }
  }
  return out;
}
