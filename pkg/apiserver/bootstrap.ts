// What a fresh cluster has before anyone asks: the system namespaces and the kubernetes service
// in default, pointing at this apiserver (upstream: the bootstrap controller), and the system
// priority classes.
import type { KubeObject } from '../../api/types.js';
import { SYSTEM_PRIORITY_CLASSES } from '../admission/priority.js';
import { isStatusError } from '../apimachinery/errors.js';
import type { RequestContext } from '../registry/context.js';
import { create } from '../registry/generic/create.js';
import type { RegistrySet } from '../registry/index.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The apiserver's own requests: its bootstrap objects and the status it maintains. */
export const systemContext = (namespace?: string): RequestContext => ({
  namespace,
  user: { name: 'system:apiserver', groups: ['system:masters'] },
  dryRun: false,
  fieldManager: 'kube-apiserver',
  fieldValidation: 'Strict',
  warnings: [],
  now: new Date(),
});

async function ensure(regs: RegistrySet, group: string, plural: string, namespace: string | undefined, obj: KubeObject): Promise<void> {
  const reg = regs.get(group, 'v1', plural);
  if (!reg || reg.peek(namespace, obj.metadata!.name!)) return;
  try {
    await create(reg, systemContext(namespace), obj);
  } catch (err) {
    if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
  }
}

export async function bootstrap(regs: RegistrySet, address: { ip: string; port: number }): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    await ensure(regs, '', 'namespaces', undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  // Upstream's scheduling post-start hook: the two system priority classes.
  for (const pc of SYSTEM_PRIORITY_CLASSES) await ensure(regs, 'scheduling.k8s.io', 'priorityclasses', undefined, structuredClone(pc));
  await ensure(regs, '', 'services', 'default', {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { clusterIP: regs.ips.first(), ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: address.port }], sessionAffinity: 'None', type: 'ClusterIP' },
  });
  await ensure(regs, '', 'endpoints', 'default', {
    apiVersion: 'v1', kind: 'Endpoints',
    metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: address.ip }], ports: [{ name: 'https', port: address.port, protocol: 'TCP' }] }],
  });
}
