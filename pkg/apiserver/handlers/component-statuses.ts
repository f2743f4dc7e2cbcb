// v1 ComponentStatuses (`kubectl get componentstatuses`), computed at each read and never stored, as upstream's
// componentstatus REST does. Upstream probes the scheduler's and controller-manager's health ports; ours serve none,
// so a component counts as healthy while the leader Lease it renews in kube-system is current. etcd-0 is the store
// (its message is etcd's health answer, as upstream shows it).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findResource } from '../../../api/index.js';
import type { KubeObject } from '../../../api/types.js';
import { notFound } from '../../apimachinery/errors.js';
import type { RegistrySet } from '../../registry/index.js';
import type { Store } from '../../storage/interface.js';
import { keyValueOf } from '../../storage/keyvalue.js';
import { recordWarning } from '../context.js';
import { sendList, sendObject } from '../respond.js';

const DEPRECATED = 'v1 ComponentStatus is deprecated in v1.19+';
const LEASES: Record<string, string> = { scheduler: 'kube-scheduler', 'controller-manager': 'kube-controller-manager' };
const NAMES = ['scheduler', 'controller-manager', 'etcd-0'];

type Health = { healthy: true; message: string } | { healthy: false; error: string };

function leaseHealth(regs: RegistrySet, lease: string, now: Date): Health {
  const spec = regs.get('coordination.k8s.io', 'v1', 'leases')?.peek('kube-system', lease)?.object.spec as Record<string, any> | undefined;
  const renewed = spec?.renewTime ? Date.parse(spec.renewTime) : NaN;
  if (renewed + (spec?.leaseDurationSeconds ?? 15) * 1000 >= now.getTime()) return { healthy: true, message: 'ok' };
  return { healthy: false, error: `no leader has renewed the ${lease} lease in kube-system within its duration` };
}

function componentStatus(name: string, h: Health): KubeObject {
  const condition = h.healthy ? { type: 'Healthy', status: 'True', message: h.message } : { type: 'Healthy', status: 'False', error: h.error };
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] };
}

export function registerComponentStatuses(app: FastifyInstance, regs: RegistrySet, store: Store): void {
  const rt = findResource('', 'v1', 'componentstatuses')!;
  const status = async (name: string, now: Date): Promise<KubeObject> => {
    if (name !== 'etcd-0') return componentStatus(name, leaseHealth(regs, LEASES[name], now));
    const healthy = await (store.healthy?.() ?? true);
    return componentStatus(name, healthy ? { healthy: true, message: '{"health":"true","reason":""}' } : { healthy: false, error: 'the store does not answer' });
  };
  // the deprecation is recorded first: a read that fails warns of it too
  const responder = (request: FastifyRequest, reply: FastifyReply, now: Date) => ({ rt, request, reply, warnings: request.warnings ?? [], now });
  app.get('/api/v1/componentstatuses', async (request, reply) => {
    recordWarning(request, DEPRECATED);
    const now = new Date();
    const items = await Promise.all(NAMES.map((n) => status(n, now)));
    const kvs = items.map((o) => keyValueOf(`/componentstatuses/${o.metadata!.name}`, Buffer.from(JSON.stringify(o)), 0, 0, o));
    return sendList(responder(request, reply, now), kvs, {});
  });
  app.get('/api/v1/componentstatuses/:name', async (request, reply) => {
    recordWarning(request, DEPRECATED);
    const { name } = request.params as { name: string };
    if (!NAMES.includes(name)) throw notFound({ group: '', resource: 'componentstatuses' }, name);
    const now = new Date();
    return sendObject(responder(request, reply, now), { object: await status(name, now) });
  });
}
