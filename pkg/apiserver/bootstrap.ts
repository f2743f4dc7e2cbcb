// What a fresh cluster has before anyone asks: the system namespaces, the system priority classes and the
// kubernetes service in default, whose Endpoints and EndpointSlice name this apiserver's address (upstream: the
// bootstrap controller and the endpoint reconciler, which also bring them up to date when the address changes), and
// the controllers that bring them back when deleted.
import { isDeepStrictEqual } from 'node:util';
import { LABEL_SERVICE_NAME } from '../../api/discovery/v1/index.js';
import type { KubeObject } from '../../api/types.js';
import { SYSTEM_PRIORITY_CLASSES } from '../admission/priority.js';
import { isStatusError } from '../apimachinery/errors.js';
import { systemContext } from '../registry/context.js';
import { create } from '../registry/generic/create.js';
import { update } from '../registry/generic/update.js';
import type { RegistrySet } from '../registry/index.js';
import { legacyTokenTracker } from './legacy-token-tracking.js';
import { every } from './periodic.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

async function ensure(regs: RegistrySet, group: string, plural: string, namespace: string | undefined, obj: KubeObject): Promise<void> {
  const reg = regs.get(group, 'v1', plural);
  if (!reg || reg.peek(namespace, obj.metadata!.name!)) return;
  try {
    await create(reg, systemContext(namespace), obj);
  } catch (err) {
    if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
  }
}

export async function bootstrap(regs: RegistrySet, address: Address): Promise<void> {
  await ensureSystemNamespaces(regs);
  // Upstream's scheduling post-start hook: the two system priority classes.
  for (const pc of SYSTEM_PRIORITY_CLASSES) await ensure(regs, 'scheduling.k8s.io', 'priorityclasses', undefined, structuredClone(pc));
  await ensureKubernetesService(regs, address);
  // at start only, as upstream's: the service's ports follow this server's
  const ports = servicePorts(address);
  await reconcile(regs, '', 'services', {
    upToDate: (svc) => isDeepStrictEqual(svc.spec?.ports, ports),
    build: (svc) => ({ ...svc!, spec: { ...(svc!.spec ?? {}), ports } }),
  });
  await reconcileEndpoints(regs, address);
}

/**
 * What upstream's kubernetesservice controller (every EndpointInterval, 10 s) and systemnamespaces controller (every
 * minute) keep: a deleted `kubernetes` service, its endpoints, or a system namespace comes back; and the legacy-token
 * tracking ConfigMap (legacy-token-tracking.ts).
 */
export function maintainBootstrapObjects(regs: RegistrySet, address: Address, onError: (err: unknown) => void, serviceEveryMs = 10_000): () => void {
  const trackLegacyTokens = legacyTokenTracker(regs);
  trackLegacyTokens().catch(onError);
  const timers = [
    every(serviceEveryMs, async () => {
      await ensureKubernetesService(regs, address);
      await reconcileEndpoints(regs, address);
      await trackLegacyTokens();
    }, onError),
    every(60_000, () => ensureSystemNamespaces(regs), onError),
  ];
  return () => timers.forEach(clearInterval);
}

interface Address { ip: string; port: number }

const servicePorts = (address: Address): object[] => [{ name: 'https', port: 443, protocol: 'TCP', targetPort: address.port }];

async function ensureSystemNamespaces(regs: RegistrySet): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    await ensure(regs, '', 'namespaces', undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}

const ensureKubernetesService = (regs: RegistrySet, address: Address): Promise<void> => ensure(regs, '', 'services', 'default', {
  apiVersion: 'v1', kind: 'Service',
  metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
  spec: { clusterIP: regs.ips.first(), ports: servicePorts(address), sessionAffinity: 'None', type: 'ClusterIP' },
});

async function reconcileEndpoints(regs: RegistrySet, address: Address): Promise<void> {
  const endpointPorts = [{ name: 'https', port: address.port, protocol: 'TCP' }];
  await reconcile(regs, '', 'endpoints', fields({
    apiVersion: 'v1', kind: 'Endpoints',
    metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: address.ip }], ports: endpointPorts }],
  }));
  await reconcile(regs, 'discovery.k8s.io', 'endpointslices', fields({
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', labels: { [LABEL_SERVICE_NAME]: 'kubernetes' } },
    addressType: address.ip.includes(':') ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [address.ip], conditions: { ready: true } }],
    ports: endpointPorts,
  }));
}

interface Reconciliation {
  upToDate(stored: KubeObject): boolean;
  /** The object to store, from the stored one (undefined: it is missing and is created, unless build refuses). */
  build(stored: KubeObject | undefined): KubeObject;
}

/** Every field of `want` but its metadata kept as given; the stored object's labels kept beside want's. */
const fields = (want: KubeObject): Reconciliation => ({
  upToDate: (stored) => Object.entries(want).every(([k, v]) => k === 'metadata' || k === 'apiVersion' || k === 'kind' || isDeepStrictEqual(stored[k], v)),
  build: (stored) => ({
    ...structuredClone(want),
    metadata: { ...stored?.metadata, ...want.metadata, labels: { ...stored?.metadata?.labels, ...want.metadata?.labels } },
  }),
});

/** Creates the object `kubernetes` of default, or brings the stored one up to date. */
async function reconcile(regs: RegistrySet, group: string, plural: string, r: Reconciliation): Promise<void> {
  const reg = regs.get(group, 'v1', plural);
  const stored = reg?.peek('default', 'kubernetes')?.object;
  if (!reg || (stored && r.upToDate(stored))) return;
  await update(reg, systemContext('default'), { name: 'kubernetes', createIfMissing: true, build: (current) => r.build(current && structuredClone(current)) });
}
