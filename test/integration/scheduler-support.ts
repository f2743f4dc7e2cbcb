// Shared by the scheduler's integration tests: Node and Pod objects, a scheduler in this process, polls.
import { pino } from 'pino';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { Scheduler, parseConfiguration, type PluginFactory, type SchedulerConfiguration } from '../../pkg/scheduler/index.js';
import type { SchedulingObserver } from '../../pkg/scheduler/metrics.js';
import type { TestApiServer } from '../support/apiserver.js';

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: number;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
  extra?: Record<string, string>;
}

export const nodeObject = (name: string, o: NodeOptions = {}): KubeObject => {
  const resources = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: String(o.pods ?? 110), ...o.extra };
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...o.labels } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: resources, allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }],
    },
  };
};

export const podObject = (name: string, o: { cpu?: string; memory?: string; labels?: Record<string, string>; spec?: Record<string, unknown>; namespace?: string } = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: o.namespace ?? 'default', labels: o.labels ?? { app: name } },
  spec: {
    containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: o.cpu ?? '100m', memory: o.memory ?? '64Mi' } } }],
    ...o.spec,
  },
});

/** Creates the node with its status (written through nodes/status when create drops it). */
export const createNode = async (client: Client, name: string, o: NodeOptions = {}): Promise<KubeObject> => {
  const node = nodeObject(name, o);
  const created = await client.nodes().create(node);
  if (!created.status?.allocatable) {
    return client.nodes().patch(name, 'merge', { status: node.status }, { subresource: 'status' });
  }
  return created;
};

export const adminClient = (api: TestApiServer): Promise<Client> => Client.fromKubeconfig(api.kubeconfig, { qps: 0 });

export interface RunningScheduler { scheduler: Scheduler; stop(): Promise<void> }

export const startScheduler = (client: Client, config: Partial<SchedulerConfiguration> | Record<string, unknown> = {}, random = () => 0.5, registry?: Record<string, PluginFactory>, observer?: SchedulingObserver): RunningScheduler => {
  const scheduler = new Scheduler({
    client, config: parseConfiguration(config as Record<string, unknown>), random, registry, observer,
    logger: pino({ name: 'scheduler', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' }),
  });
  const ac = new AbortController();
  const done = scheduler.run(ac.signal);
  return { scheduler, stop: async () => { ac.abort(); await done; } };
};

/** Polls `fn` until it returns something truthy, or throws after `ms`. */
export const eventually = async <T>(fn: () => Promise<T | undefined | null | false>, ms = 15_000, what = 'condition'): Promise<T> => {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) { last = e; }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

export const boundNode = async (client: Client, name: string, ns = 'default'): Promise<string | undefined> =>
  (await client.pods(ns).get(name)).spec?.nodeName || undefined;

export const waitBound = (client: Client, name: string, ns = 'default', ms = 15_000): Promise<string> =>
  eventually(() => boundNode(client, name, ns), ms, `pod ${ns}/${name} bound`);

export const eventsFor = async (client: Client, name: string, ns = 'default'): Promise<KubeObject[]> =>
  (await client.events(ns).list({ fieldSelector: `involvedObject.name=${name}` })).items;
