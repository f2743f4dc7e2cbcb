// Services: clusterIP(s) and nodePorts allocated on create and released on delete; the fields
// upstream's service REST fills in (ipFamilies, ipFamilyPolicy, internalTrafficPolicy, ...).
import type { KubeObject } from '../../../api/types.js';
import { invalidValue } from '../../apimachinery/field.js';
import { nameIsDNS1035Label } from '../../apimachinery/names.js';
import { invalid, type StatusCause } from '../../apimachinery/errors.js';
import type { Strategy } from '../strategy.js';
import { AllocatedError, type IpAllocator, type PortAllocator } from './ip-allocator.js';

const wantsNodePorts = (svc: KubeObject): boolean => svc.spec?.type === 'NodePort' || svc.spec?.type === 'LoadBalancer';

export function serviceStrategy(ips: IpAllocator, ports: PortAllocator): Strategy {
  /** Takes the addresses and ports the service needs; on any failure gives back what it took. */
  const reserve = (svc: KubeObject): void => {
    const causes: StatusCause[] = [];
    const took: { ip?: string; ports: number[] } = { ports: [] };
    const spec = svc.spec ?? {};
    if (spec.type !== 'ExternalName' && spec.clusterIP !== 'None') {
      if (spec.clusterIP) {
        try {
          ips.allocate(spec.clusterIP);
          took.ip = spec.clusterIP;
        } catch (err) {
          if (!(err instanceof AllocatedError)) throw err;
          causes.push(invalidValue('spec.clusterIPs', [spec.clusterIP], `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`));
        }
      } else {
        spec.clusterIP = took.ip = ips.allocateNext();
      }
      spec.clusterIPs = [spec.clusterIP];
    }
    if (wantsNodePorts(svc)) {
      for (const [i, p] of ((spec.ports ?? []) as KubeObject[]).entries()) {
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
    if (causes.length) {
      if (took.ip) ips.release(took.ip);
      took.ports.forEach((p) => ports.release(p));
      throw invalid('', 'Service', svc.metadata?.name ?? '', causes);
    }
  };
  const release = (svc: KubeObject): void => {
    if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') ips.release(svc.spec.clusterIP);
    for (const p of (svc.spec?.ports ?? []) as KubeObject[]) if (p.nodePort) ports.release(p.nodePort);
  };

  return {
    nameFn: nameIsDNS1035Label,
    allowCreateOnUpdate: false,
    prepareForCreate(svc) {
      const spec = (svc.spec ??= {});
      if (spec.type !== 'ExternalName') {
        spec.ipFamilies ??= ['IPv4'];
        spec.ipFamilyPolicy ??= 'SingleStack';
        spec.internalTrafficPolicy ??= 'Cluster';
      }
      if (wantsNodePorts(svc)) spec.externalTrafficPolicy ??= 'Cluster';
      if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
    },
    prepareForUpdate(svc, old) {
      // Allocated addresses stay unless the client names them again.
      const spec = (svc.spec ??= {});
      if (!spec.clusterIP && old.spec?.clusterIP) spec.clusterIP = old.spec.clusterIP;
      if (!spec.clusterIPs && old.spec?.clusterIPs) spec.clusterIPs = old.spec.clusterIPs;
      for (const k of ['ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']) if (spec[k] === undefined && old.spec?.[k] !== undefined) spec[k] = old.spec[k];
      if (wantsNodePorts(svc)) {
        for (const p of (spec.ports ?? []) as KubeObject[]) {
          const before = ((old.spec?.ports ?? []) as KubeObject[]).find((o) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
          if (!p.nodePort && before?.nodePort) p.nodePort = before.nodePort;
        }
      }
    },
    validateUpdate(svc, old) {
      if (old.spec?.clusterIP && svc.spec?.clusterIP !== old.spec.clusterIP && old.spec.type === svc.spec?.type) {
        return [invalidValue('spec.clusterIPs[0]', svc.spec?.clusterIP ?? '', 'may not change once set')];
      }
      return [];
    },
    beforeCreate: reserve,
    afterDelete: release,
  };
}

/** Records what stored services already hold, at start-up. */
export function reserveExisting(services: KubeObject[], ips: IpAllocator, ports: PortAllocator): void {
  for (const svc of services) {
    try {
      if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') ips.allocate(svc.spec.clusterIP);
    } catch { /* a duplicate on disk: keep serving it */ }
    for (const p of (svc.spec?.ports ?? []) as KubeObject[]) {
      try {
        if (p.nodePort) ports.allocate(p.nodePort);
      } catch { /* as above */ }
    }
  }
}
