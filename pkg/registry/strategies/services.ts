// Services: clusterIP(s) and nodePorts allocated on create and released on delete; the fields
// upstream's service REST fills in (ipFamilies, ipFamilyPolicy, internalTrafficPolicy, ...).
import type { KubeObject } from '../../../api/types.js';
import { invalidValue } from '../../apimachinery/field.js';
import { nameIsDNS1035Label } from '../../apimachinery/names.js';
import { invalid, type StatusCause } from '../../apimachinery/errors.js';
import type { Strategy } from '../strategy.js';
import { validateService, validateServiceUpdate } from '../validation/service.js';
import { AllocatedError, type IpAllocator, type PortAllocator } from './ip-allocator.js';

const wantsNodePorts = (svc: KubeObject): boolean => svc.spec?.type === 'NodePort' || svc.spec?.type === 'LoadBalancer';

type Spec = Record<string, any>;

const needsClusterIP = (spec: Spec): boolean => spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const needsNodePort = (spec: Spec): boolean => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const externallyAccessible = (spec: Spec): boolean =>
  needsNodePort(spec) || (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
const portsOf = (spec: Spec): Spec[] => (Array.isArray(spec.ports) ? spec.ports.filter((p: unknown) => typeof p === 'object' && p !== null) : []);

/**
 * Allocated values the client left out stay (upstream's patchAllocatedValues): the cluster IPs, and each port's
 * nodePort, matched by port name, unless another port already uses it.
 */
/** A LoadBalancer whose traffic stays on the node it arrives at has a node port for the load balancer's health checks. */
const needsHealthCheckPort = (s: Spec): boolean => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';

function patchAllocatedValues(spec: Spec, old: Spec): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if (!(Array.isArray(spec.clusterIPs) && spec.clusterIPs.length) && Array.isArray(old.clusterIPs) && old.clusterIPs.length) spec.clusterIPs = old.clusterIPs;
  }
  if (needsClusterIP(spec)) {
    for (const k of ['ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']) if (spec[k] === undefined && old[k] !== undefined) spec[k] = old[k];
  }
  if (needsHealthCheckPort(old) && needsHealthCheckPort(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    const used = new Set(portsOf(spec).map((p) => p.nodePort).filter(Boolean));
    const byName = new Map(portsOf(old).map((p) => [p.name ?? '', p.nodePort]));
    const patched = (p: Spec): number | undefined => {
      const before = byName.get(p.name ?? '');
      return !p.nodePort && before && !used.has(before) ? before : undefined;
    };
    // copies: the ports may be the stored object's own
    if (portsOf(spec).some((p) => patched(p) !== undefined)) {
      spec.ports = spec.ports.map((p: unknown) => {
        const port = typeof p === 'object' && p !== null ? patched(p as Spec) : undefined;
        return port === undefined ? p : { ...(p as Spec), nodePort: port };
      });
    }
  }
}

const sameList = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * An update that names clusterIP alone (an old client, a patch of it) moves clusterIPs with it, as upstream's
 * normalizeClusterIPs: the plural field is rewritten from the singular one when the client left it as it was.
 */
function normalizeClusterIPs(spec: Spec, old: Spec): void {
  if (Array.isArray(old.clusterIPs) && old.clusterIPs.length && !(Array.isArray(spec.clusterIPs) && spec.clusterIPs.length) && old.clusterIP === spec.clusterIP) {
    spec.clusterIPs = old.clusterIPs;
  }
  if ((old.clusterIP ?? '') === (spec.clusterIP ?? '') || !sameList(spec.clusterIPs, old.clusterIPs)) return;
  if (spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
  else delete spec.clusterIPs;
}

/**
 * Fields a type change makes meaningless are dropped when the client did not change them (upstream's
 * dropTypeDependentFields): cluster IPs and families when leaving for ExternalName, node ports when leaving
 * NodePort/LoadBalancer, the load balancer's own fields, the external traffic policy.
 */
function dropTypeDependentFields(spec: Spec, old: Spec): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if ((spec.clusterIP ?? '') === (old.clusterIP ?? '') && sameList(spec.clusterIPs, old.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList(spec.ipFamilies, old.ipFamilies)) delete spec.ipFamilies;
    if ((spec.ipFamilyPolicy ?? null) === (old.ipFamilyPolicy ?? null)) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(spec) && Array.isArray(spec.ports) && sameList(portsOf(spec).map((p) => p.nodePort ?? 0), portsOf(old).map((p) => p.nodePort ?? 0))) {
    spec.ports = spec.ports.map((p: unknown) => {
      if (typeof p !== 'object' || p === null) return p;
      const { nodePort: _dropped, ...rest } = p as Spec;
      void _dropped;
      return rest;
    });
  }
  if (needsHealthCheckPort(old) && !needsHealthCheckPort(spec) && (spec.healthCheckNodePort ?? 0) === (old.healthCheckNodePort ?? 0)) delete spec.healthCheckNodePort;
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if ((spec.loadBalancerClass ?? null) === (old.loadBalancerClass ?? null)) delete spec.loadBalancerClass;
  }
  if (old.type !== 'ExternalName' && spec.type === 'ExternalName' && (spec.internalTrafficPolicy ?? null) === (old.internalTrafficPolicy ?? null)) {
    delete spec.internalTrafficPolicy;
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && (spec.externalTrafficPolicy ?? '') === (old.externalTrafficPolicy ?? '')) {
    delete spec.externalTrafficPolicy;
  }
}

/** What the service's type implies and the client left out (on an update too: ExternalName to ClusterIP). */
function defaultTypeFields(svc: KubeObject): void {
  const spec = (svc.spec ??= {});
  if (spec.type !== 'ExternalName') {
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.internalTrafficPolicy ??= 'Cluster';
  }
  if (wantsNodePorts(svc)) spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

/** The node ports a service holds: its ports' and its health check's. */
const nodePortsOf = (svc: KubeObject): number[] => {
  const held = ((svc.spec?.ports ?? []) as KubeObject[]).map((p) => p.nodePort).filter((n): n is number => typeof n === 'number' && n > 0);
  const hc = svc.spec?.healthCheckNodePort;
  return typeof hc === 'number' && hc > 0 ? [...held, hc] : held;
};

/** The cluster IP and node ports a write took from the pools. */
interface Taken { ip?: string; ports: number[] }

export function serviceStrategy(ips: IpAllocator, ports: PortAllocator): Strategy {
  /**
   * Takes the addresses and ports the service needs that `old` (the stored service, on an update) does not hold
   * already; on any failure gives back what it took.
   */
  const giveBack = (took: Taken): void => {
    if (took.ip) ips.release(took.ip);
    took.ports.forEach((p) => ports.release(p));
  };
  const reserve = (svc: KubeObject, old?: KubeObject): Taken => {
    const causes: StatusCause[] = [];
    const took: Taken = { ports: [] };
    const spec = svc.spec ?? {};
    const held = new Set(((old?.spec?.ports ?? []) as KubeObject[]).map((p) => p.nodePort).filter(Boolean));
    if (spec.type !== 'ExternalName' && spec.clusterIP !== 'None') {
      if (!spec.clusterIP) {
        spec.clusterIP = took.ip = ips.allocateNext();
      } else if (spec.clusterIP !== old?.spec?.clusterIP) {
        try {
          ips.allocate(spec.clusterIP);
          took.ip = spec.clusterIP;
        } catch (err) {
          if (!(err instanceof AllocatedError || err instanceof RangeError)) throw err;
          // upstream's allocIPs: the IPs come first and alone, before any node port is looked at
          throw invalid('', 'Service', svc.metadata?.name ?? '', [invalidValue('spec.clusterIPs', [spec.clusterIP], `failed to allocate IP ${spec.clusterIP}: ${err.message}`)]);
        }
      }
      // (an update of the status leaves the stored spec as it is)
      if (!(Array.isArray(spec.clusterIPs) && spec.clusterIPs.length === 1 && spec.clusterIPs[0] === spec.clusterIP)) spec.clusterIPs = [spec.clusterIP];
    }
    if (wantsNodePorts(svc)) {
      for (const [i, p] of ((spec.ports ?? []) as KubeObject[]).entries()) {
        if (p.nodePort && held.has(p.nodePort)) continue;
        try {
          if (p.nodePort) ports.allocate(p.nodePort);
          else p.nodePort = ports.allocateNext();
          took.ports.push(p.nodePort);
        } catch (err) {
          if (!(err instanceof AllocatedError || err instanceof RangeError)) throw err;
          causes.push(invalidValue(`spec.ports[${i}].nodePort`, p.nodePort, err.message));
        }
      }
    }
    if (needsHealthCheckPort(spec) && !(spec.healthCheckNodePort && spec.healthCheckNodePort === old?.spec?.healthCheckNodePort)) {
      const wanted = spec.healthCheckNodePort;
      try {
        if (wanted) ports.allocate(wanted);
        else spec.healthCheckNodePort = ports.allocateNext();
        took.ports.push(spec.healthCheckNodePort);
      } catch (err) {
        if (!(err instanceof AllocatedError || err instanceof RangeError)) throw err;
        const detail = wanted ? `failed to allocate requested HealthCheck NodePort ${wanted}` : 'failed to allocate a HealthCheck NodePort';
        causes.push(invalidValue('spec.healthCheckNodePort', wanted ?? 0, `${detail}: ${err.message}`));
      }
    }
    if (causes.length) {
      giveBack(took);
      throw invalid('', 'Service', svc.metadata?.name ?? '', causes);
    }
    return took;
  };
  const release = (svc: KubeObject): void => {
    if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') ips.release(svc.spec.clusterIP);
    for (const port of nodePortsOf(svc)) ports.release(port);
  };

  return {
    nameFn: nameIsDNS1035Label,
    allowCreateOnUpdate: false,
    prepareForCreate(svc) {
      defaultTypeFields(svc);
    },
    prepareForUpdate(svc, old) {
      const spec = (svc.spec ??= {});
      patchAllocatedValues(spec, old.spec ?? {});
      normalizeClusterIPs(spec, old.spec ?? {});
      dropTypeDependentFields(spec, old.spec ?? {});
      defaultTypeFields(svc);
      if (spec.type !== 'LoadBalancer' && svc.status?.loadBalancer) svc.status = { ...svc.status, loadBalancer: {} };
    },
    validate: (svc) => validateService(svc),
    validateUpdate: validateServiceUpdate,
    // on updates, the IP checks come first and alone, as upstream's allocator runs them
    updateValidationIsComplete: true,
    beforeCreate: (svc) => { reserve(svc); },
    beforeUpdate(svc, old) {
      // a type change takes what the new type needs (ClusterIP to NodePort: node ports) at once, and gives back
      // what it dropped (dropTypeDependentFields) once the update is stored
      const took = reserve(svc, old);
      return {
        commit: () => {
          const ip = old.spec?.clusterIP;
          if (ip && ip !== 'None' && ip !== svc.spec?.clusterIP) ips.release(ip);
          const kept = new Set(nodePortsOf(svc));
          for (const port of nodePortsOf(old)) if (!kept.has(port)) ports.release(port);
        },
        abort: () => giveBack(took),
      };
    },
    afterDelete: release,
  };
}

/** Records what stored services already hold, at start-up. */
export function reserveExisting(services: KubeObject[], ips: IpAllocator, ports: PortAllocator): void {
  for (const svc of services) {
    try {
      if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') ips.allocate(svc.spec.clusterIP);
    } catch { /* a duplicate on disk: keep serving it */ }
    for (const port of nodePortsOf(svc)) {
      try {
        ports.allocate(port);
      } catch { /* as above */ }
    }
  }
}
