// What `mini-kube up` runs, as data: one entry per process. The controller-manager, the scheduler and the
// kubelets join with one entry each (args, plus an identity from PkiPaths for their kubeconfig).
import { join } from 'node:path';
import { formatCidr, intToIp, ipToInt, parseIpv4Cidr } from '../pkg/apimachinery/ipv4.js';
import type { CertKeyPaths, MetricsServerPaths, PkiPaths } from '../pkg/pki/index.js';

export interface ComponentSpec {
  /** Also names its log, DIR/logs/<name>.log, and its kubeconfig, DIR/<name>.kubeconfig. */
  name: string;
  /** Arguments after `mini-kube`. */
  args: string[];
  /** A client of the apiserver: up writes its kubeconfig and appends `--kubeconfig <file>`. */
  identity?: { user: string; pair: CertKeyPaths };
  /** Flags for `node` itself, before the script. */
  nodeFlags?: string[];
}

export interface ClusterLayout {
  dataDir: string;
  port: number;
  bindAddress: string;
  nodes: string[];
  runtime: 'process' | 'fake';
  /** The process runtime's answer to an image outside its catalog (the kubelets' --unknown-images; default simulate). */
  unknownImages?: 'simulate' | 'fail';
  pki: PkiPaths;
  /** Client rates (--kube-api-qps/--kube-api-burst) of the controller-manager and the scheduler; default theirs. */
  rates?: { controllerManager?: ClientRate; scheduler?: ClientRate };
  /** Run metrics-server on this loopback port with these certificates (up's default; its APIService is up's to apply). */
  metricsServer?: { port: number; pki: MetricsServerPaths };
  /** Run the service proxy (up's default with the process runtime: the fake one's pods have no sockets to reach). */
  proxy?: boolean;
  /** Run the cluster DNS on this loopback port, and point the kubelets' ClusterFirst pods at this ClusterIP. */
  dns?: { port: number; ip: string; domain: string };
  /** The apiserver's --service-cluster-ip-range (its default when unset). */
  serviceClusterIpRange?: string;
  /**
   * Loopback ports of the scheduler's and the controller-manager's HTTPS servers (/healthz, /metrics, ...): free ones
   * up picks, not upstream's 10259 and 10257, since several clusters share a machine; unset, their defaults.
   */
  servingPorts?: { scheduler: number; controllerManager: number };
}

export interface ClientRate { qps: number; burst: number }

/**
 * The pods' range that node-ipam cuts into one /24 per node: 10.244.0.0/16 (as kind's) for up to 256 nodes, widened
 * round 10.244.0.0 for more, so that every node gets one (outside the simulated nodes' own 10.0.x.y).
 */
export const clusterCidr = (nodes: number): string =>
  formatCidr(parseIpv4Cidr(`10.244.0.0/${16 - Math.max(0, Math.ceil(Math.log2(Math.max(nodes, 1))) - 8)}`));

/**
 * The informer-fed components (controller-manager, scheduler, kubelet) decode every watch event into short-lived
 * objects: with V8's default 16 MB semi-spaces one fed thousands of pods and nodes scavenges often and spends a tenth
 * of its time collecting. Only a cluster of simulated nodes is fed so: the young generation, once grown (a
 * deployment made every few seconds is enough), stays at 2 x 64 MB, ~100 MB more RSS for each of them, so a cluster
 * of real processes keeps the default. The apiserver always does: its memory is the one users watch.
 */
const informerNodeFlags = (c: ClusterLayout): string[] | undefined => (c.runtime === 'fake' ? ['--max-semi-space-size=64'] : undefined);

const rateArgs = (r: ClientRate | undefined): string[] => (r ? ['--kube-api-qps', String(r.qps), '--kube-api-burst', String(r.burst)] : []);
/** Their self-signed serving pairs kept with the cluster's certificates: made at the first start only. */
const servingArgs = (c: ClusterLayout, port: number | undefined): string[] => (port === undefined ? [] : ['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', c.pki.dir]);

export const controlPlane = (c: ClusterLayout): ComponentSpec[] => [
  {
    name: 'apiserver',
    // privileged containers allowed and bootstrap tokens accepted, as kubeadm sets its clusters up (kind too)
    args: ['apiserver', '--data-dir', c.dataDir, '--secure-port', String(c.port), '--bind-address', c.bindAddress, '--allow-privileged=true', '--enable-bootstrap-token-auth',
      ...(c.serviceClusterIpRange ? ['--service-cluster-ip-range', c.serviceClusterIpRange] : [])],
  },
  {
    name: 'controller-manager',
    args: [
      // with kubeadm's --controllers: the bootstrap signer and token cleaner too, off in upstream's default
      'controller-manager', '--controllers', '*,bootstrapsigner,tokencleaner', '--use-service-account-credentials', '--hostpath-provisioner-dir', join(c.dataDir, 'hostpath-provisioner'),
      '--allocate-node-cidrs', '--cluster-cidr', clusterCidr(c.nodes.length), '--node-cidr-mask-size', '24', ...rateArgs(c.rates?.controllerManager),
      '--cluster-signing-cert-file', c.pki.ca.cert, '--cluster-signing-key-file', c.pki.ca.key, '--service-account-private-key-file', c.pki.serviceAccount.key,
      ...servingArgs(c, c.servingPorts?.controllerManager),
    ],
    identity: { user: 'system:kube-controller-manager', pair: c.pki.controllerManager },
    nodeFlags: informerNodeFlags(c),
  },
  { name: 'scheduler', args: ['scheduler', ...rateArgs(c.rates?.scheduler), ...servingArgs(c, c.servingPorts?.scheduler)], identity: { user: 'system:kube-scheduler', pair: c.pki.scheduler }, nodeFlags: informerNodeFlags(c) },
  ...kubelets(c),
  ...(c.metricsServer ? [metricsServer(c.metricsServer)] : []),
  ...(c.dns ? [{
    name: 'dns', args: ['dns', '--bind-address', '127.0.0.1', '--port', String(c.dns.port), '--cluster-domain', c.dns.domain],
    identity: { user: 'system:cluster-dns', pair: c.pki.clusterDns },
  }] : []),
  // one proxy for every node of the host, not kube-proxy's one per node: the ClusterIPs are the host's addresses, which
  // one process alone can listen on; it tells per connection which node's it is (pkg/proxy/node-topology.ts)
  ...(c.proxy ? [{ name: 'proxy', args: ['proxy', '--hostname-override', c.nodes[0] ?? 'node-1'], identity: { user: 'system:kube-proxy', pair: c.pki.kubeProxy } }] : []),
];

/**
 * As metrics-server's own manifests run it: every 15 s, the kubelets at their InternalIP and the port in the Node's
 * status, their self-signed serving certificates not verified.
 */
const metricsServer = (m: NonNullable<ClusterLayout['metricsServer']>): ComponentSpec => ({
  name: 'metrics-server',
  args: [
    'metrics-server', '--secure-port', String(m.port), '--bind-address', '127.0.0.1', '--tls-cert-file', m.pki.serving.cert,
    '--tls-private-key-file', m.pki.serving.key, '--metric-resolution', '15s', '--kubelet-use-node-status-port', '--kubelet-insecure-tls',
    '--kubelet-preferred-address-types', 'InternalIP,ExternalIP,Hostname',
  ],
  identity: { user: 'system:metrics-server', pair: m.pki.client },
});

/**
 * The node agents: one process per node with its system:node certificate, or, with the fake runtime and several
 * nodes, one process simulating them all (node-1..node-N), which needs a cluster-wide identity.
 */
export const kubelets = (c: ClusterLayout): ComponentSpec[] => {
  const loopback = c.bindAddress === '127.0.0.1' || c.bindAddress === '::1';
  // On a loopback cluster each node has an address of its own, the i-th after the apiserver's (as the fake runtime
  // gives its simulated nodes: all of 127.0.0.0/8 reaches lo on Linux): the service proxy, which serves every node
  // of the host, tells by it which node a NodePort connection or health check was sent to.
  const address = (i: number): string[] => {
    if (!loopback) return [];
    const ip = c.bindAddress === '::1' ? c.bindAddress : intToIp(ipToInt(c.bindAddress) + i);
    return ['--node-ip', ip, '--address', ip];
  };
  // the cluster going away takes its containers with it (a kubelet alone leaves them, as upstream's does)
  // and, as kubeadm configures them, tokens are reviewed by the apiserver and anonymous requests refused
  const common = ['--runtime', c.runtime, '--port', '0', '--anonymous-auth=false', '--authentication-token-webhook=true',
    ...(c.runtime === 'process' ? ['--stop-containers-on-exit=true', ...(c.unknownImages === 'fail' ? ['--unknown-images=fail'] : [])] : []),
    ...(c.dns ? ['--cluster-dns', c.dns.ip, '--cluster-domain', c.dns.domain] : [])];
  if (c.runtime === 'fake' && c.nodes.length > 1) {
    return [{
      name: 'kubelet', args: ['kubelet', '--node-name', 'node', '--nodes', String(c.nodes.length), '--root-dir', join(c.dataDir, 'kubelet'), ...address(0), ...common],
      identity: { user: 'kubernetes-admin', pair: c.pki.admin }, nodeFlags: informerNodeFlags(c),
    }];
  }
  // no --pod-cidr: each node gets its podCIDR from the controller-manager's node-ipam
  return c.nodes.map((n, i) => ({
    name: `kubelet-${n}`, args: ['kubelet', '--node-name', n, '--root-dir', join(c.dataDir, 'kubelet', n), ...address(i), ...common],
    identity: { user: `system:node:${n}`, pair: c.pki.nodes[n]! }, nodeFlags: informerNodeFlags(c),
  }));
};
