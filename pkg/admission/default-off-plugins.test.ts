// The scheduling, ownership and rate-limit plugins that are off by default, as upstream's: each rule and its message.
import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/types.js';
import type { AccessAnswer, AccessQuestion } from '../apimachinery/cel/index.js';
import { FakeClock } from '../client/clock.js';
import { DenyServiceExternalIPs } from './deny-service-external-ips.js';
import { EventRateLimit, readEventRateLimitConfig } from './event-rate-limit.js';
import { ExtendedResourceToleration, isExtendedResourceName } from './extended-resource-toleration.js';
import { OwnerReferencesPermissionEnforcement } from './owner-references-permission.js';
import { LimitPodHardAntiAffinityTopology } from './pod-anti-affinity.js';
import { PodNodeSelector, readNodeSelectorConfig, selectorToLabels } from './pod-node-selector.js';
import { PodTolerationRestriction, readTolerationRestrictionConfig } from './pod-toleration-restriction.js';
import { attrs, memoryDeps } from './testing.js';
import { mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';

const pod = (spec: KubeObject = {}, extra: KubeObject = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec }, ...extra });
const namespace = (annotations: Record<string, string> = {}) => ({ plural: 'namespaces', obj: { metadata: { name: 'ns', annotations } } });
const burstable = { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] };

describe('LimitPodHardAntiAffinityTopology', () => {
  const p = new LimitPodHardAntiAffinityTopology();
  const withKey = (topologyKey: string) => pod({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {}, topologyKey }] } } });

  it('allows only the hostname topology in required anti-affinity terms', () => {
    expect(() => p.validate(attrs('pods', 'CREATE', withKey('kubernetes.io/hostname')))).not.toThrow();
    expect(() => p.validate(attrs('pods', 'UPDATE', withKey('topology.kubernetes.io/zone'), { oldObject: pod() })))
      .toThrow('pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed');
    // preferred terms and subresources are not looked at
    expect(() => p.validate(attrs('pods', 'CREATE', pod({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone' } }] } } })))).not.toThrow();
    expect(() => p.validate(attrs('pods', 'UPDATE', withKey('zone'), { subresource: 'status' }))).not.toThrow();
  });
});

describe('PodNodeSelector', () => {
  const config = readNodeSelectorConfig({ podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=dev', ns: 'env=prod,team=a,disk=ssd', other: 'x=y' } });
  const admitted = (ns: KubeObject, p: KubeObject, c = config): KubeObject => {
    const plugin = new PodNodeSelector(memoryDeps([{ plural: 'namespaces', obj: ns }]), c);
    plugin.admit(attrs('pods', 'CREATE', p));
    plugin.validate(attrs('pods', 'CREATE', p));
    return p;
  };
  const ns = (selector?: string): KubeObject => ({ metadata: { name: 'ns', annotations: selector === undefined ? {} : { 'scheduler.alpha.kubernetes.io/node-selector': selector } } });

  it('merges the namespace selector into a new pod, the pod keeping its own values', () => {
    expect(admitted(ns('env=prod,team=a'), pod({ nodeSelector: { disk: 'ssd' } })).spec.nodeSelector).toEqual({ env: 'prod', team: 'a', disk: 'ssd' });
    // no annotation: the cluster default; an empty annotation: nothing (no cluster default either)
    expect(admitted(ns(), pod(), readNodeSelectorConfig({ podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=dev' } })).spec.nodeSelector).toEqual({ env: 'dev' });
    expect(admitted(ns(''), pod()).spec.nodeSelector).toBeUndefined();
  });

  it('refuses a conflict with the namespace selector and a selector outside the whitelist, with upstream\'s messages', () => {
    expect(() => admitted(ns('env=prod'), pod({ nodeSelector: { env: 'dev' } }))).toThrow('pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector');
    expect(() => admitted(ns('env=prod'), pod({ nodeSelector: { gpu: 'yes' } }))).toThrow('pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist');
    try {
      admitted(ns('env=prod'), pod({ nodeSelector: { env: 'dev' } }));
    } catch (e) {
      expect(e).toMatchObject({ code: 403, reason: 'Forbidden' });
    }
  });

  it('leaves updates alone and parses selectors as ConvertSelectorToLabelsMap', () => {
    const plugin = new PodNodeSelector(memoryDeps([{ plural: 'namespaces', obj: ns('env=prod') }]), config);
    const p = pod({ nodeSelector: { env: 'dev' } });
    expect(() => plugin.admit(attrs('pods', 'UPDATE', p, { oldObject: pod() }))).not.toThrow();
    expect(selectorToLabels(' a = b ,c=d')).toEqual({ a: 'b', c: 'd' });
    expect(() => selectorToLabels('a=b=c')).toThrow('invalid selector: [a b c]');
    expect(() => selectorToLabels('a in (b)')).toThrow('invalid selector: [a in (b)]');
    expect(() => new PodNodeSelector(memoryDeps(), config).admit(attrs('pods', 'CREATE', pod()))).toThrow('Internal error occurred: namespace ns does not exist');
  });
});

describe('PodTolerationRestriction', () => {
  const def = 'scheduler.alpha.kubernetes.io/defaultTolerations';
  const white = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
  const plugin = (annotations: Record<string, string>, config?: KubeObject) =>
    new PodTolerationRestriction(memoryDeps([namespace(annotations)]), readTolerationRestrictionConfig(config));
  const run = (p: PodTolerationRestriction, obj: KubeObject, op: 'CREATE' | 'UPDATE' = 'CREATE'): KubeObject => {
    const a = attrs('pods', op, obj, op === 'UPDATE' ? { oldObject: pod() } : {});
    p.admit(a);
    p.validate(a);
    return obj;
  };
  const gpu = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };

  it('merges the namespace default tolerations into new pods (else the cluster default), and memory pressure for non-BestEffort pods', () => {
    const p = plugin({ [def]: JSON.stringify([gpu]) });
    expect(run(p, pod()).spec.tolerations).toEqual([gpu]);
    expect(run(p, pod(burstable)).spec.tolerations).toEqual([gpu, { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }]);
    // an update gets no defaults, a BestEffort update nothing at all
    expect(run(p, pod(), 'UPDATE').spec.tolerations).toBeUndefined();
    const cluster = plugin({}, { apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', default: [{ key: 'c', operator: 'Exists' }] });
    expect(run(cluster, pod()).spec.tolerations).toEqual([{ key: 'c', operator: 'Exists' }]);
    // the pod's own toleration that covers a default keeps it out
    expect(run(p, pod({ tolerations: [{ operator: 'Exists' }] })).spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('refuses tolerations outside the namespace whitelist (else the cluster\'s) with upstream\'s message', () => {
    const p = plugin({ [white]: JSON.stringify([gpu]) });
    expect(() => run(p, pod({ tolerations: [gpu] }))).not.toThrow();
    expect(() => run(p, pod({ tolerations: [{ key: 'other', operator: 'Exists' }] })))
      .toThrow('pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
    const cluster = plugin({}, { apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', whitelist: [gpu] });
    let err: unknown;
    try { run(cluster, pod(burstable)); } catch (e) { err = e; }
    // a plain error upstream: 500 with no reason
    expect(err).toMatchObject({ code: 500, reason: '', message: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist' });
    // an empty namespace whitelist allows anything
    expect(() => run(plugin({ [white]: '' }, { apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', whitelist: [gpu] }), pod(burstable))).not.toThrow();
  });

  it('reads its configuration and the annotations as upstream decodes them', () => {
    expect(() => readTolerationRestrictionConfig({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', default: [{ key: 'a', operator: 'Bogus' }] }))
      .toThrow('couldn\'t init admission plugin "PodTolerationRestriction": invalid config: [podtolerationrestriction.default[0].operator: Unsupported value: "Bogus": supported values: "Equal", "Exists"]');
    expect(() => run(plugin({ [def]: '{"key": "a"}' }), pod())).toThrow('json: cannot unmarshal object into Go value of type []v1.Toleration');
    expect(() => run(plugin({ [def]: '[x' }), pod())).toThrow("invalid character 'x' looking for beginning of value");
    expect(() => new PodTolerationRestriction(memoryDeps()).admit(attrs('pods', 'CREATE', pod()))).toThrow('namespaces "ns" not found');
  });

  it('merges and checks toleration sets as pkg/util/tolerations', () => {
    const noexec = (s?: number) => ({ key: 'k', operator: 'Exists', effect: 'NoExecute', ...(s === undefined ? {} : { tolerationSeconds: s }) });
    expect(mergeTolerations([noexec(10)], [noexec()])).toEqual([noexec()]);
    expect(mergeTolerations([noexec(10), noexec(10)], [])).toEqual([noexec(10)]);
    expect(verifyAgainstWhitelist([noexec(10)], [noexec(60)])).toBe(true);
    expect(verifyAgainstWhitelist([noexec()], [noexec(60)])).toBe(false);
    // Equal only covers a toleration that says Equal
    expect(verifyAgainstWhitelist([{ key: 'k', value: 'v' }], [{ key: 'k', operator: 'Equal', value: 'v' }])).toBe(false);
  });
});

describe('ExtendedResourceToleration', () => {
  it('tolerates the taint of every extended resource requested, sorted, once', () => {
    const p = pod({
      initContainers: [{ name: 'i', image: 'x', resources: { requests: { 'example.com/b': '1' } } }],
      containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', 'example.com/gpu': '1', 'kubernetes.io/x': '1', 'example.com/b': '1' } } }],
      tolerations: [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
    new ExtendedResourceToleration().admit(attrs('pods', 'CREATE', p));
    expect(p.spec.tolerations).toEqual([
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/b', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(['example.com/gpu', 'cpu', 'kubernetes.io/x', 'foo.kubernetes.io/x', 'requests.example.com/x', 'a/b/c'].map(isExtendedResourceName))
      .toEqual([true, false, false, false, false, false]);
  });
});

describe('DenyServiceExternalIPs', () => {
  const p = new DenyServiceExternalIPs();
  const svc = (externalIPs?: string[]): KubeObject => ({ metadata: { name: 's', namespace: 'ns' }, spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });

  it('refuses new external IPs and keeps old ones', () => {
    expect(() => p.validate(attrs('services', 'CREATE', svc()))).not.toThrow();
    expect(() => p.validate(attrs('services', 'CREATE', svc(['1.2.3.4'])))).toThrow('services "s" is forbidden: Use of external IPs is denied by admission control');
    expect(() => p.validate(attrs('services', 'UPDATE', svc(['1.2.3.4']), { oldObject: svc(['1.2.3.4', '5.6.7.8']) }))).not.toThrow();
    expect(() => p.validate(attrs('services', 'UPDATE', svc(['1.2.3.4', '9.9.9.9']), { oldObject: svc(['1.2.3.4']) }))).toThrow('Use of external IPs is denied by admission control');
  });
});

describe('OwnerReferencesPermissionEnforcement', () => {
  const user = { name: 'jane', groups: ['system:authenticated'] };
  /** jane may do what `allowed` lists: `verb group/resource[/subresource]`. */
  const plugin = (allowed: string[]) => {
    const asked: string[] = [];
    const deps = Object.assign(memoryDeps(), {
      review: async (q: AccessQuestion): Promise<AccessAnswer> => {
        const what = `${q.verb} ${q.group}/${q.resource}${q.subresource ? `/${q.subresource}` : ''}`;
        asked.push(`${what} ${q.namespace ?? ''}/${q.name ?? ''}`);
        return { allowed: allowed.includes(what), reason: '' };
      },
    });
    return { p: new OwnerReferencesPermissionEnforcement(deps), asked };
  };
  const cm = (refs?: OwnerReference[]): KubeObject => ({ metadata: { name: 'cm', namespace: 'ns', ...(refs ? { ownerReferences: refs } : {}) } });
  const ref = (extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u1', ...extra });

  it('needs delete on the object to change its ownerReferences (not to create it with them)', async () => {
    const { p } = plugin([]);
    await expect(p.validate(attrs('configmaps', 'CREATE', cm([ref()]), { user }))).resolves.toBeUndefined();
    await expect(p.validate(attrs('configmaps', 'UPDATE', cm([ref()]), { user, name: 'cm', oldObject: cm() })))
      .rejects.toThrow('configmaps "cm" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
    await expect(p.validate(attrs('configmaps', 'UPDATE', cm([ref()]), { user, name: 'cm', oldObject: cm([ref()]) }))).resolves.toBeUndefined();
    await expect(p.validate(attrs('pods', 'UPDATE', cm([ref()]), { user, name: 'cm', subresource: 'status', oldObject: cm() }))).resolves.toBeUndefined();
    await expect(plugin(['delete /configmaps']).p.validate(attrs('configmaps', 'UPDATE', cm([ref()]), { user, name: 'cm', oldObject: cm() }))).resolves.toBeUndefined();
  });

  it('needs update on the owner\'s finalizers for a new blockOwnerDeletion', async () => {
    const { p, asked } = plugin([]);
    await expect(p.validate(attrs('configmaps', 'CREATE', cm([ref({ blockOwnerDeletion: true })]), { user })))
      .rejects.toThrow('configmaps "cm" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
    expect(asked).toEqual(['update */*/finalizers /*', 'update apps/deployments/finalizers ns/d']);
    await expect(plugin(['update apps/deployments/finalizers']).p.validate(attrs('configmaps', 'CREATE', cm([ref({ blockOwnerDeletion: true })]), { user }))).resolves.toBeUndefined();
    await expect(plugin(['update */*/finalizers']).p.validate(attrs('configmaps', 'CREATE', cm([ref({ blockOwnerDeletion: true, kind: 'Nope' })]), { user }))).resolves.toBeUndefined();
    await expect(p.validate(attrs('configmaps', 'CREATE', cm([ref({ blockOwnerDeletion: true, apiVersion: 'example.com/v1', kind: 'Foo' })]), { user })))
      .rejects.toThrow('cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Foo: no matches for kind "Foo" in version "example.com/v1"');
    // already blocking before: nothing new to check beyond the delete right
    const blocking = cm([ref({ blockOwnerDeletion: true })]);
    await expect(plugin(['delete /configmaps']).p.validate(attrs('configmaps', 'UPDATE', blocking, { user, name: 'cm', oldObject: cm([ref({ blockOwnerDeletion: true }), ref({ uid: 'u2' })]) }))).resolves.toBeUndefined();
  });
});

describe('EventRateLimit', () => {
  const config = (limits: unknown) => ({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits });
  const event = (ns: string, component = 'c'): KubeObject => ({ metadata: { name: 'e', namespace: ns }, involvedObject: { kind: 'Pod', name: 'p' }, source: { component } });
  const eventAttrs = (e: KubeObject, extra: { group?: string; dryRun?: boolean } = {}) => {
    const a = attrs('events', 'CREATE', e, { namespace: e.metadata?.namespace, ...extra });
    return { ...a, resource: { ...a.resource, kind: 'Event' } };
  };
  const create = (p: EventRateLimit, e: KubeObject, extra = {}) => () => p.validate(eventAttrs(e, extra));

  it('refuses events over a bucket with 429 and upstream\'s message, per key, refilled over time', async () => {
    const clock = new FakeClock(0);
    const p = new EventRateLimit(readEventRateLimitConfig(config([{ type: 'Namespace', qps: 1, burst: 2 }])), clock);
    expect(create(p, event('a'))).not.toThrow();
    expect(create(p, event('a'))).not.toThrow();
    let err: unknown;
    try { create(p, event('a'))(); } catch (e) { err = e; }
    expect(err).toMatchObject({ code: 429, reason: 'TooManyRequests', message: 'Too many requests: limit reached on type Namespace for key a' });
    expect(create(p, event('b'))).not.toThrow();
    expect(create(p, event('a'), { dryRun: true })).not.toThrow();
    await clock.advance(1000);
    expect(create(p, event('a'))).not.toThrow();
    expect(create(p, event('a'))).toThrow('limit reached');
    // not an Event of the core group: not counted
    expect(() => p.validate(eventAttrs(event('a'), { group: 'events.k8s.io' }))).not.toThrow();
  });

  it('gives every limit its say, and forgets the least recently used keys past cacheSize', () => {
    const p = new EventRateLimit(readEventRateLimitConfig(config([{ type: 'Server', qps: 1, burst: 1 }, { type: 'SourceAndObject', qps: 1, burst: 1, cacheSize: 1 }])), new FakeClock(0));
    expect(create(p, event('a'))).not.toThrow();
    expect(create(p, event('a'))).toThrow('Too many requests: [limit reached on type Server for key , limit reached on type SourceAndObject for key cPodp]');
    expect(create(p, event('a', 'other'))).toThrow('Too many requests: limit reached on type Server for key ');
    // cPodp was evicted by the other source: a full bucket again
    expect(create(p, event('a'))).toThrow('Too many requests: limit reached on type Server for key ');
  });

  it('validates its configuration at start as upstream', () => {
    expect(() => readEventRateLimitConfig(undefined)).toThrow('couldn\'t init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
    expect(() => readEventRateLimitConfig(config([]))).toThrow('limits: Invalid value: []eventratelimit.Limit{}: must not be empty');
    expect(() => readEventRateLimitConfig(config([{ type: 'Pod', qps: 0, burst: 1, cacheSize: -1 }]))).toThrow(
      '[limits[0].type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject", limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]');
  });
});
