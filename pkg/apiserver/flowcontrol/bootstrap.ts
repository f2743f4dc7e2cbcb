// API Priority and Fairness configuration as upstream's apiserver keeps it (apiserver/pkg/apis/flowcontrol/bootstrap
// and the APF config controller): the mandatory and suggested FlowSchemas and PriorityLevelConfigurations exist from
// the first start, those annotated apf.kubernetes.io/autoupdate-spec=true get upstream's spec back at each start, and
// every FlowSchema's Dangling condition says whether its priority level exists. Requests are not queued by them.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../../api/types.js';
import { isStatusError } from '../../apimachinery/errors.js';
import { create } from '../../registry/generic/create.js';
import { update } from '../../registry/generic/update.js';
import type { RegistrySet } from '../../registry/index.js';
import { resourcePrefix } from '../../registry/keys.js';
import { rfc3339 } from '../../registry/meta.js';
import { followCache } from '../../storage/cacher/follow.js';
import { systemContext } from '../../registry/context.js';

const GROUP = 'flowcontrol.apiserver.k8s.io';
const AUTOUPDATE = 'apf.kubernetes.io/autoupdate-spec';
type Obj = Record<string, any>;

const ALL_RESOURCES = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const ALL_URLS = { verbs: ['*'], nonResourceURLs: ['*'] };
const group = (name: string): Obj => ({ kind: 'Group', group: { name } });
const user = (name: string): Obj => ({ kind: 'User', user: { name } });
const kubeSystemAccount = (name: string): Obj => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } });
const getCreateUpdate = (apiGroup: string, resources: string[], namespaces: string[]): Obj =>
  ({ verbs: ['create', 'get', 'update'], apiGroups: [apiGroup], resources, namespaces });

const flowSchema = (name: string, pl: string, precedence: number, method: string | undefined, rules: Obj): KubeObject => ({
  apiVersion: `${GROUP}/v1`, kind: 'FlowSchema', metadata: { name, annotations: { [AUTOUPDATE]: 'true' } },
  spec: { priorityLevelConfiguration: { name: pl }, matchingPrecedence: precedence, ...(method ? { distinguisherMethod: { type: method } } : {}), rules: [rules] },
});
/** Matches everything the subjects ask. */
const everything = (subjects: Obj[]): Obj => ({ subjects, resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_URLS] });

const queued = (name: string, shares: number, lendable: number, queues: number, handSize: number): KubeObject => ({
  apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: { [AUTOUPDATE]: 'true' } },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent: lendable, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } },
});

const ANYONE = [group('system:unauthenticated'), group('system:authenticated')];

export const BOOTSTRAP_PRIORITY_LEVELS: KubeObject[] = [
  { apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name: 'exempt', annotations: { [AUTOUPDATE]: 'true' } },
    spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
  { apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name: 'catch-all', annotations: { [AUTOUPDATE]: 'true' } },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } } },
  queued('system', 30, 33, 64, 6),
  queued('node-high', 40, 25, 64, 6),
  queued('leader-election', 10, 0, 16, 4),
  queued('workload-high', 40, 50, 128, 6),
  queued('workload-low', 100, 90, 128, 6),
  queued('global-default', 20, 50, 128, 6),
];

export const BOOTSTRAP_FLOW_SCHEMAS: KubeObject[] = [
  flowSchema('exempt', 'exempt', 1, undefined, everything([group('system:masters')])),
  flowSchema('probes', 'exempt', 2, undefined, { subjects: ANYONE, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz'] }] }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), kubeSystemAccount('*')],
    resourceRules: [getCreateUpdate('', ['configmaps', 'endpoints'], ['kube-system']), getCreateUpdate('coordination.k8s.io', ['leases'], ['*'])],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), kubeSystemAccount('endpoint-controller'), kubeSystemAccount('endpointslicemirroring-controller')],
    resourceRules: [getCreateUpdate('', ['endpoints'], ['*'])],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: [kubeSystemAccount('*')],
    resourceRules: [getCreateUpdate('', ['configmaps', 'endpoints'], ['*']), getCreateUpdate('coordination.k8s.io', ['leases'], ['*'])],
  }),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: [group('system:nodes')],
    resourceRules: [
      { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] },
      { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
    ],
  }),
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything([group('system:nodes')])),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-controller-manager')])),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-scheduler')])),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything([kubeSystemAccount('*')])),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything([group('system:serviceaccounts')])),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(ANYONE)),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', everything(ANYONE)),
];

/** Creates what is missing; puts upstream's spec back where the object asks for it (autoupdate-spec=true). */
export async function ensureFlowControlObjects(regs: RegistrySet): Promise<void> {
  const ensure = async (plural: string, wanted: KubeObject): Promise<void> => {
    const reg = regs.get(GROUP, 'v1', plural);
    if (!reg) return;
    const name = wanted.metadata!.name!;
    const current = reg.peek(undefined, name)?.object;
    try {
      if (!current) await create(reg, systemContext(), structuredClone(wanted));
      else if (current.metadata?.annotations?.[AUTOUPDATE] === 'true' && !isDeepStrictEqual(current.spec, wanted.spec)) {
        await update(reg, systemContext(), { name, build: (cur) => ({ ...cur!, spec: structuredClone(wanted.spec) }) });
      }
    } catch (err) {
      if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
    }
  };
  await Promise.all([
    ...BOOTSTRAP_PRIORITY_LEVELS.map((pl) => ensure('prioritylevelconfigurations', pl)),
    ...BOOTSTRAP_FLOW_SCHEMAS.map((fs) => ensure('flowschemas', fs)),
  ]);
}

/** The Dangling condition of a FlowSchema whose priority level does (not) exist, as upstream's APF controller words it. */
const danglingCondition = (pl: string, exists: boolean): Obj => (exists
  ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" and it exists` }
  : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" but there is no such object` });

/** Keeps every FlowSchema's Dangling condition true to the priority levels there are; returns the stop function. */
export function maintainFlowSchemaStatus(regs: RegistrySet, onError: (err: unknown) => void): () => void {
  const schemas = regs.get(GROUP, 'v1', 'flowschemas');
  const levels = regs.get(GROUP, 'v1', 'prioritylevelconfigurations');
  if (!schemas || !levels) return () => {};
  let pending = false;
  const check = (): void => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      for (const kv of schemas.deps.cacher.list({ prefix: resourcePrefix(schemas.rt) }).items) {
        const fs = kv.object;
        const pl: string = fs.spec?.priorityLevelConfiguration?.name ?? '';
        const want = danglingCondition(pl, levels.peek(undefined, pl) !== undefined);
        const have = (fs.status?.conditions as Obj[] | undefined)?.find((c) => c.type === 'Dangling');
        if (have && have.status === want.status && have.message === want.message) continue;
        update(schemas, systemContext(), {
          name: fs.metadata!.name!, subresource: 'status',
          build: (cur) => {
            const conditions: Obj[] = (cur!.status?.conditions ?? []).filter((c: Obj) => c.type !== 'Dangling');
            const previous = (cur!.status?.conditions as Obj[] | undefined)?.find((c) => c.type === 'Dangling');
            const lastTransitionTime = previous && previous.status === want.status ? previous.lastTransitionTime : rfc3339(new Date());
            return { ...cur!, status: { ...cur!.status, conditions: [...conditions, { ...want, lastTransitionTime }] } };
          },
        }).catch((err: unknown) => { if (!(isStatusError(err) && err.code === 404)) onError(err); });
      }
    });
  };
  const stops = [
    followCache(schemas.deps.cacher, resourcePrefix(schemas.rt), check, { initialEvents: true }),
    followCache(levels.deps.cacher, resourcePrefix(levels.rt), check),
  ];
  return () => stops.forEach((stop) => stop());
}
