// Services: clusterIP(s) and nodePorts allocated on create and released on delete; the fields
// upstream's service REST fills in (ipFamilies, ipFamilyPolicy, internalTrafficPolicy, ...).
import type { KubeObject } from '../../../api/types.js';
import { invalidValue } from '../../apimachinery/field.js';
import { nameIsDNS1035Label } from '../../apimachinery/names.js';
import { internalError, invalid, type StatusCause } from '../../apimachinery/errors.js';
import type { Strategy, UpdateSideEffects } from '../strategy.js';
import { goStringSlice, invalidRendered } from '../validation/go-values.js';
import { isIPv6String } from '../validation/network.js';
import { validateClusterIPsRelatedFields, validateService, validateServiceUpdate } from '../validation/service.js';
import { serviceWarnings } from './service-warnings.js';
import { AllocatedError, type IpAllocator, type PortAllocator, PortOperation, RangeFullError } from './ip-allocator.js';

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
  if (spec.type !== 'ExternalName') spec.internalTrafficPolicy ??= 'Cluster';
  if (wantsNodePorts(svc)) spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);
const isHeadlessWithoutSelector = (spec: Spec): boolean =>
  spec.clusterIP === 'None' && Object.keys(spec.selector && typeof spec.selector === 'object' ? spec.selector : {}).length === 0;
const otherFamily = (f: string): string => (f === 'IPv4' ? 'IPv6' : 'IPv4');

/**
 * An update of a PreferDualStack service that changes neither its type nor its IPs and families is left as it is
 * (upstream's isMatchingPreferDualStackClusterIPFields): a cluster changed to or from dual-stack does not grow or
 * shrink it.
 */
function matchingPreferDualStack(spec: Spec, old: Spec | undefined): boolean {
  if (!old || spec.ipFamilyPolicy == null || old.type !== spec.type || !needsClusterIP(spec)) return false;
  if (spec.ipFamilyPolicy !== 'PreferDualStack' || (old.ipFamilyPolicy != null && old.ipFamilyPolicy !== 'PreferDualStack')) return false;
  return sameList(list(spec.clusterIPs), list(old.clusterIPs)) && sameList(list(spec.ipFamilies), list(old.ipFamilies));
}

/**
 * Upstream's initIPFamilyFields, against the families this cluster serves (`served`, the primary first): the
 * policy and families defaulted, checked for what the cluster can give, before validation. A headless service
 * without a selector may name families the cluster lacks, and asks for both unless SingleStack.
 */
function initIPFamilyFields(svc: KubeObject, old: KubeObject | undefined, served: readonly string[]): void {
  const spec: Spec = svc.spec;
  const oldSpec: Spec | undefined = old?.spec;
  const name = svc.metadata?.name ?? '';
  if (spec.type === 'ExternalName' || matchingPreferDualStack(spec, oldSpec)) return;
  if (spec.ipFamilyPolicy == null) {
    if (oldSpec?.ipFamilyPolicy != null) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
    else spec.ipFamilyPolicy = isHeadlessWithoutSelector(spec) ? 'RequireDualStack' : 'SingleStack';
  }
  const loose = validateClusterIPsRelatedFields(spec);
  if (loose.length) throw invalid('', 'Service', name, loose);

  const causes: StatusCause[] = [];
  const policy: string = spec.ipFamilyPolicy;
  // fresh arrays: the lists may be the stored object's own (patchAllocatedValues)
  let ips = list(spec.clusterIPs);
  let families = list(spec.ipFamilies);
  if (oldSpec) {
    const oldIps = list(oldSpec.clusterIPs);
    const oldFamilies = list(oldSpec.ipFamilies);
    if (policy === 'SingleStack') {
      // dropping the secondary is what SingleStack asks for when the lists came back unchanged
      if (sameList(ips, oldIps) && ips.length > 1) spec.clusterIPs = ips = ips.slice(0, 1);
      if (sameList(families, oldFamilies) && families.length > 1) spec.ipFamilies = families = families.slice(0, 1);
    } else {
      if (ips.length > 0 && ips.length < oldIps.length) causes.push(invalidValue('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (families.length > 0 && families.length < oldFamilies.length) causes.push(invalidValue('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (policy === 'SingleStack') {
    if (ips.length === 2) causes.push(invalidValue('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (families.length === 2) causes.push(invalidValue('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  // families the client left out follow its cluster IPs
  for (const [i, ip] of ips.entries()) {
    if (ip === 'None') break;
    if (i < families.length) continue;
    const family = isIPv6String(ip) ? 'IPv6' : 'IPv4';
    if (served.includes(family)) families = [...families, family];
    else causes.push(invalidRendered(`spec.clusterIPs[${i}]`, goStringSlice(ips), `${family} is not configured on this cluster`));
  }
  if (causes.length) throw invalid('', 'Service', name, causes);

  if (isHeadlessWithoutSelector(spec)) {
    if (families.length === 0) families = [served[0]!];
    if (families.length < 2 && policy !== 'SingleStack') families = [...families, otherFamily(families[0]!)];
    setFamilies(spec, families);
    return;
  }
  if (policy === 'RequireDualStack' && served.length < 2) causes.push(invalidValue('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
  families.forEach((f, i) => {
    if (!served.includes(f)) causes.push(invalidValue(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (causes.length) throw invalid('', 'Service', name, causes);
  if (families.length === 0) families = [served[0]!];
  if (policy !== 'SingleStack' && families.length === 1 && served.length === 2) families = [...families, otherFamily(families[0]!)];
  setFamilies(spec, families);
}

/** Written only when they change: an update that leaves the spec alone (a label patch) shares the stored one. */
const setFamilies = (spec: Spec, families: string[]): void => {
  if (!sameList(spec.ipFamilies, families)) spec.ipFamilies = families;
};

/** The node ports a service holds: its ports' and its health check's. */
const nodePortsOf = (svc: KubeObject): number[] => {
  const held = ((svc.spec?.ports ?? []) as KubeObject[]).map((p) => p.nodePort).filter((n): n is number => typeof n === 'number' && n > 0);
  const hc = svc.spec?.healthCheckNodePort;
  return typeof hc === 'number' && hc > 0 ? [...held, hc] : held;
};

/** The node ports of a service's ports alone (upstream's collectServiceNodePorts). */
const portNodePorts = (spec: Spec): number[] => portsOf(spec).map((p) => p.nodePort).filter((n): n is number => typeof n === 'number' && n > 0);

/** Upstream's shouldAllocateNodePorts: a LoadBalancer may do without; a node port the client names is taken all the same. */
const shouldAllocateNodePorts = (spec: Spec): boolean => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);

/** Port i of the spec with its node port set, as a copy: the ports may be the stored object's own. */
const setNodePort = (spec: Spec, i: number, nodePort: number): void => {
  spec.ports = spec.ports.map((p: unknown, j: number) => (j === i ? { ...(p as Spec), nodePort } : p));
};

/** The allocator's refusal of a requested value (taken, or outside the range): the field's 422; anything else goes on. */
const refusal = (err: unknown): Error => {
  if (err instanceof AllocatedError || err instanceof RangeError) return err;
  throw err;
};

const fullRange = (err: unknown, what: string): never => {
  // neither a field's fault nor really internal, says upstream, which answers 500 all the same
  if (err instanceof RangeFullError) throw internalError(`failed to allocate a ${what}: ${err.message}`);
  throw err;
};

export function serviceStrategy(ips: IpAllocator, ports: PortAllocator): Strategy {
  const served = [ips.family];

  /**
   * Upstream's allocClusterIPs: the cluster IP of a service that needs one, requested or the next free; what a
   * real run took, for the caller to give back should the write fail.
   */
  const allocClusterIPs = (svc: KubeObject, dryRun: boolean): string | undefined => {
    const spec = svc.spec;
    const requested = list(spec.clusterIPs);
    if (spec.type === 'ExternalName' || requested[0] === 'None') return undefined;
    let ip = requested[0] ?? '';
    if (ip === '') {
      try {
        ip = ips.allocateNext(dryRun);
      } catch (err) {
        fullRange(err, 'serviceIP');
      }
    } else {
      try {
        ips.allocate(ip, dryRun);
      } catch (err) {
        const detail = `failed to allocate IP ${ip}: ${refusal(err).message}`;
        throw invalid('', 'Service', svc.metadata?.name ?? '', [invalidRendered('spec.clusterIPs', goStringSlice(requested), detail)]);
      }
    }
    spec.clusterIP = ip;
    spec.clusterIPs = [ip, ...requested.slice(1)];
    return dryRun ? undefined : ip;
  };

  const nodePortInvalid = (svc: KubeObject, i: number, port: number, err: unknown): never => {
    throw invalid('', 'Service', svc.metadata?.name ?? '', [invalidValue(`spec.ports[${i}].nodePort`, port, refusal(err).message)]);
  };

  const allocateNodePort = (op: PortOperation): number => {
    try {
      return op.allocateNext();
    } catch (err) {
      return fullRange(err, 'nodePort');
    }
  };

  /**
   * Upstream's initNodePorts: ports of one number share a node port (53/TCP and 53/UDP), the one the client named
   * for any of them or else one allocated; the first refusal ends it.
   */
  const initNodePorts = (svc: KubeObject, op: PortOperation): void => {
    const spec = svc.spec;
    const byPort = new Map<number, number>();
    portsOf(spec).forEach((p, i) => {
      const nodePort = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (!nodePort && !shouldAllocateNodePorts(spec)) return;
      const port = Number(p.port ?? 0);
      const shared = byPort.get(port) ?? 0;
      if (!shared) {
        const requested = portsOf(spec).find((q) => Number(q.port ?? 0) === port && q.nodePort)?.nodePort as number | undefined;
        let taken: number;
        if (requested) {
          try {
            op.allocate(requested);
          } catch (err) {
            nodePortInvalid(svc, i, requested, err);
          }
          taken = requested;
        } else {
          taken = allocateNodePort(op);
        }
        if (taken !== nodePort) setNodePort(spec, i, taken);
        byPort.set(port, taken);
      } else if (nodePort !== shared) {
        if (!nodePort) setNodePort(spec, i, shared);
        else {
          try {
            op.allocate(nodePort);
          } catch (err) {
            nodePortInvalid(svc, i, nodePort, err);
          }
        }
      }
    });
  };

  /**
   * Upstream's updateNodePorts: a port's node port is taken unless the stored service or an earlier port holds it
   * already; each port without one gets its own (no sharing by port number here); what the update dropped goes
   * back once it is stored.
   */
  const updateNodePorts = (svc: KubeObject, old: KubeObject, op: PortOperation): void => {
    const spec = svc.spec;
    const held = portNodePorts(old.spec ?? {});
    const taken = new Set<number>();
    portsOf(spec).forEach((p, i) => {
      const nodePort = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (!nodePort && !shouldAllocateNodePorts(spec)) return;
      if (!nodePort) {
        setNodePort(spec, i, allocateNodePort(op));
        return;
      }
      if (held.includes(nodePort) || taken.has(nodePort)) return;
      try {
        op.allocate(nodePort);
      } catch (err) {
        nodePortInvalid(svc, i, nodePort, err);
      }
      taken.add(nodePort);
    });
    const kept = portNodePorts(spec);
    for (const port of held) if (!kept.includes(port)) op.releaseDeferred(port);
  };

  /** Upstream's allocHealthCheckNodePort, whose failures it answers as 500 InternalError. */
  const allocHealthCheckNodePort = (spec: Spec, op: PortOperation): void => {
    const requested = spec.healthCheckNodePort;
    if (requested) {
      try {
        op.allocate(requested);
      } catch (err) {
        throw internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${(err as Error).message}`);
      }
      return;
    }
    try {
      spec.healthCheckNodePort = op.allocateNext();
    } catch (err) {
      // upstream prints the port it did not get: 0
      throw internalError(`failed to allocate a HealthCheck NodePort 0: ${(err as Error).message}`);
    }
  };

  /** Everything taken so far goes back (a failed allocation, or a write that did not happen). */
  const giveBack = (ip: string | undefined, op: PortOperation): void => {
    op.rollback();
    if (ip) ips.release(ip);
  };

  /** Upstream's allocateCreate after initIPFamilyFields: cluster IPs first and alone, then node ports. */
  const allocateCreate = (svc: KubeObject, dryRun: boolean): void => {
    const spec = svc.spec;
    const ip = allocClusterIPs(svc, dryRun);
    const op = new PortOperation(ports, dryRun);
    try {
      if (needsNodePort(spec)) initNodePorts(svc, op);
      if (needsHealthCheckPort(spec)) allocHealthCheckNodePort(spec, op);
    } catch (err) {
      giveBack(ip, op);
      throw err;
    }
  };

  /**
   * Upstream's allocateUpdate after initIPFamilyFields: a cluster IP for a service leaving ExternalName, node ports
   * the new type or ports need; what the update drops (the IP of one becoming ExternalName, node ports) goes back
   * only once it is stored.
   */
  const allocateUpdate = (svc: KubeObject, old: KubeObject, dryRun: boolean): UpdateSideEffects => {
    const spec = svc.spec;
    const oldSpec: Spec = old.spec ?? {};
    let ip: string | undefined;
    let releaseIPs: string[] = [];
    if (!matchingPreferDualStack(spec, oldSpec)) {
      if (oldSpec.type === 'ExternalName' && spec.type !== 'ExternalName') ip = allocClusterIPs(svc, dryRun);
      else if (list(oldSpec.clusterIPs)[0] !== 'None' && oldSpec.type !== 'ExternalName' && spec.type === 'ExternalName') releaseIPs = list(oldSpec.clusterIPs);
    }
    const op = new PortOperation(ports, dryRun);
    try {
      if (needsNodePort(oldSpec) && (spec.type === 'ExternalName' || spec.type === 'ClusterIP')) {
        for (const port of portNodePorts(oldSpec)) op.releaseDeferred(port);
      }
      if (needsNodePort(spec)) updateNodePorts(svc, old, op);
      const hadHealthCheck = needsHealthCheckPort(oldSpec);
      if (!hadHealthCheck && needsHealthCheckPort(spec)) allocHealthCheckNodePort(spec, op);
      else if (hadHealthCheck && !needsHealthCheckPort(spec) && oldSpec.healthCheckNodePort) op.releaseDeferred(oldSpec.healthCheckNodePort);
    } catch (err) {
      giveBack(ip, op);
      throw err;
    }
    return {
      commit: () => {
        op.commit();
        if (!dryRun) releaseIPs.forEach((released) => ips.release(released));
      },
      abort: () => giveBack(ip, op),
    };
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
      const spec = svc.spec;
      // upstream's normalizeClusterIPs for a create: a client that names the singular field alone
      if (typeof spec.clusterIP === 'string' && spec.clusterIP !== '' && list(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
      initIPFamilyFields(svc, undefined, served);
    },
    prepareForUpdate(svc, old) {
      const spec = (svc.spec ??= {});
      patchAllocatedValues(spec, old.spec ?? {});
      normalizeClusterIPs(spec, old.spec ?? {});
      dropTypeDependentFields(spec, old.spec ?? {});
      defaultTypeFields(svc);
      initIPFamilyFields(svc, old, served);
      if (spec.type !== 'LoadBalancer' && svc.status?.loadBalancer) svc.status = { ...svc.status, loadBalancer: {} };
    },
    validate: (svc) => validateService(svc),
    validateUpdate: validateServiceUpdate,
    warningsOnCreate: serviceWarnings,
    warningsOnUpdate: serviceWarnings,
    // on updates, the IP checks come first and alone, as upstream's allocator runs them
    updateValidationIsComplete: true,
    // a dry run allocates too, from allocators that keep nothing (upstream's BeginCreate with dryRun)
    beforeCreate: (svc, ctx) => allocateCreate(svc, ctx.dryRun),
    beforeUpdate: (svc, old, ctx) => allocateUpdate(svc, old, ctx.dryRun),
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
