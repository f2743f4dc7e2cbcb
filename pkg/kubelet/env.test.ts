import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { containerEnv, expandVars, linkedServices, serviceLinkEnv } from './env.js';

const svc = (namespace: string, name: string, clusterIP: string, ports: unknown[]): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { clusterIP, ports } });
const kubernetes = svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]);
const pod = (namespace: string, spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name: 'p' }, spec });

describe('service links', () => {
  it('names each service port as upstream\'s kubelet does, with the Docker link variables', () => {
    expect(serviceLinkEnv([svc('ns', 'my-db', '10.96.3.4', [{ port: 5432 }, { name: 'metrics', port: 9187, protocol: 'UDP' }])])).toEqual({
      MY_DB_SERVICE_HOST: '10.96.3.4', MY_DB_SERVICE_PORT: '5432', MY_DB_SERVICE_PORT_METRICS: '9187',
      MY_DB_PORT: 'tcp://10.96.3.4:5432',
      MY_DB_PORT_5432_TCP: 'tcp://10.96.3.4:5432', MY_DB_PORT_5432_TCP_PROTO: 'tcp', MY_DB_PORT_5432_TCP_PORT: '5432', MY_DB_PORT_5432_TCP_ADDR: '10.96.3.4',
      MY_DB_PORT_9187_UDP: 'udp://10.96.3.4:9187', MY_DB_PORT_9187_UDP_PROTO: 'udp', MY_DB_PORT_9187_UDP_PORT: '9187', MY_DB_PORT_9187_UDP_ADDR: '10.96.3.4',
    });
  });

  it('links the kubernetes service always, the namespace\'s own unless enableServiceLinks is false, never headless ones', () => {
    const byNs: Record<string, KubeObject[]> = {
      default: [kubernetes, svc('default', 'web', '10.96.0.9', [{ port: 80 }])],
      ns: [svc('ns', 'db', '10.96.3.4', [{ port: 5432 }]), svc('ns', 'headless', 'None', [{ port: 80 }])],
    };
    const names = (p: KubeObject): string[] => linkedServices(p, (ns) => byNs[ns] ?? []).map((s) => s.metadata!.name!);
    expect(names(pod('ns'))).toEqual(['kubernetes', 'db']);
    expect(names(pod('ns', { enableServiceLinks: false }))).toEqual(['kubernetes']);
    expect(names(pod('default', { enableServiceLinks: false }))).toEqual(['kubernetes']);
    expect(names(pod('default'))).toEqual(['kubernetes', 'web']);
  });

  it('puts the links after the container\'s own variables, which may use and override them', async () => {
    const env = await containerEnv(pod('ns'), { name: 'c', env: [{ name: 'URL', value: 'https://$(KUBERNETES_SERVICE_HOST)' }, { name: 'KUBERNETES_SERVICE_PORT', value: '8443' }] }, {
      hostIp: '10.0.0.1', get: () => Promise.resolve(undefined), node: { cpu: '1', memory: '1Gi' }, services: [kubernetes],
    });
    expect(env.slice(0, 3)).toEqual([
      { name: 'URL', value: 'https://10.96.0.1' }, { name: 'KUBERNETES_SERVICE_PORT', value: '8443' }, { name: 'KUBERNETES_SERVICE_HOST', value: '10.96.0.1' },
    ]);
    expect(env.filter((e) => e.name === 'KUBERNETES_SERVICE_PORT')).toHaveLength(1);
  });
});

describe('resourceFieldRef env vars', () => {
  it('default unset limits to the node\'s allocatable, ephemeral-storage too', async () => {
    const env = await containerEnv(pod('ns'), {
      name: 'c', resources: { limits: { memory: '128Mi' } },
      env: [
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
        { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
        { name: 'EPH', valueFrom: { resourceFieldRef: { resource: 'limits.ephemeral-storage', divisor: '1Mi' } } },
      ],
    }, { hostIp: '10.0.0.1', get: () => Promise.resolve(undefined), node: { cpu: '3', memory: '1Gi', ephemeralStorage: '2Gi' } });
    expect(env).toEqual([{ name: 'CPU', value: '3' }, { name: 'MEM', value: '128' }, { name: 'EPH', value: '2048' }]);
  });
});

describe('$(VAR) expansion', () => {
  const vars = { VAR_A: 'A', VAR_B: 'B', VAR_REF: '$(VAR_A)', VAR_EMPTY: '', 'Logging:Level': 'debug', '1num': 'one', 'a b': 'spaced' };
  it.each([
    ['$(VAR_A)-$(VAR_A)', 'A-A'], ['$$(VAR_B)_$(VAR_A)', '$(VAR_B)_A'], ['f000-$$VAR_A', 'f000-$VAR_A'], ['$(VAR_A$(VAR_B))', '$(VAR_A$(VAR_B))'],
    ['$(VAR_REF)', '$(VAR_A)'], ['foo$(VAR_EMPTY)bar', 'foobar'], ['foo$(VAR_Awhoops!', 'foo$(VAR_Awhoops!'], ['$?_boo_$!', '$?_boo_$!'],
    ['$VAR_A', '$VAR_A'], ['$(VAR_DNE)', '$(VAR_DNE)'], ['$$$$$$(BIG_MONEY)', '$$$(BIG_MONEY)'], ['$$$$$$$(VAR_A)', '$$$A'], ['${VAR_A}', '${VAR_A}'],
    ['$(VAR_B)_______$(A', 'B_______$(A'], ['$(VAR_A)foobarzab$', 'Afoobarzab$'], ['--$($($($($--', '--$($($($($--'], ['$(foo$$var)', '$(foo$$var)'],
    ['$(toString)', '$(toString)'], ['é$é', 'é$é'],
    // names relaxed validation allows are names too
    ['level=$(Logging:Level) $(1num) $(a b)', 'level=debug one spaced'],
  ])('%s → %s', (input, want) => expect(expandVars(input, vars)).toBe(want));
});
