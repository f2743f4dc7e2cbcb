// A container's environment as upstream's makeEnvironmentVariables builds it: envFrom (configMapRef, secretRef,
// with prefix), then env (value with $(VAR) expansion, valueFrom fieldRef / resourceFieldRef / configMapKeyRef /
// secretKeyRef), then the service links of the pod's namespace that env did not set. A missing ConfigMap, Secret
// or key that is not optional fails with CreateContainerConfigError.
import { isNotFound, type KubeObject } from '../client/index.js';
import { ResourceFieldError, resourceFieldValue, selectedContainer, type NodeAllocatable, type ResourceFieldSelector } from './resource-field.js';

export type ObjectGetter = (kind: 'configmaps' | 'secrets', namespace: string, name: string) => Promise<KubeObject | undefined>;

export class ContainerConfigError extends Error {
  override name = 'ContainerConfigError';
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: ResourceFieldSelector;
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    secretKeyRef?: { name: string; key: string; optional?: boolean };
  };
}
interface EnvFrom { prefix?: string; configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }
interface SpecContainer { name: string; env?: EnvVar[]; envFrom?: EnvFrom[]; resources?: { limits?: Record<string, string>; requests?: Record<string, string> } }

/**
 * Upstream's expansion (third_party/forked/golang/expansion): `$(NAME)` is whatever lies before the next `)` (names
 * relaxed validation allows, `a:b` or `1x`, too) mapped by `map`; `$$` is `$`; any other `$`, an unterminated `$(`
 * and a `$` at the end stay as written.
 */
export const expand = (s: string, map: (name: string) => string): string => {
  let out = '';
  let checkpoint = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '$' || i + 1 >= s.length) continue;
    out += s.slice(checkpoint, i);
    const next = String.fromCodePoint(s.codePointAt(i + 1)!);
    const close = next === '(' ? s.indexOf(')', i + 2) : -1;
    if (close >= 0) { out += map(s.slice(i + 2, close)); i = close; }
    else { out += next === '$' ? '$' : `$${next}`; i += next.length; }
    checkpoint = i + 1;
  }
  return out + s.slice(checkpoint);
};

/** $(VAR) expands from `vars`; unknown references stay as written (upstream's MappingFuncFor). */
export const expandVars = (s: string, vars: Record<string, string>): string =>
  expand(s, (name) => (Object.hasOwn(vars, name) ? vars[name]! : `$(${name})`));

const fieldValue = (pod: KubeObject, path: string, podIp: string | undefined, hostIp: string): string => {
  const meta = pod.metadata ?? {};
  const label = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (label) return ((label[1] === 'labels' ? meta.labels : meta.annotations) ?? {})[label[2]!] ?? '';
  switch (path) {
    case 'metadata.name': return meta.name ?? '';
    case 'metadata.namespace': return meta.namespace ?? '';
    case 'metadata.uid': return meta.uid ?? '';
    case 'spec.nodeName': return (pod.spec?.nodeName as string | undefined) ?? '';
    case 'spec.serviceAccountName': return (pod.spec?.serviceAccountName as string | undefined) ?? '';
    case 'status.podIP': return podIp ?? '';
    case 'status.podIPs': return podIp ?? '';
    case 'status.hostIP': return hostIp;
    case 'status.hostIPs': return hostIp;
    default: throw new ContainerConfigError(`unsupported fieldPath: ${path}`);
  }
};

const resourceValue = (pod: KubeObject, c: SpecContainer, ref: ResourceFieldSelector, node: NodeAllocatable): string => {
  try {
    return resourceFieldValue(selectedContainer(pod, ref, c), ref, node);
  } catch (e) {
    if (e instanceof ResourceFieldError) throw new ContainerConfigError(e.message);
    throw e;
  }
};

const envName = (s: string): string => s.replace(/-/g, '_').toUpperCase();
const hasClusterIp = (svc: KubeObject): boolean => {
  const ip = svc.spec?.clusterIP as string | undefined;
  return !!ip && ip !== 'None' && ((svc.spec?.ports ?? []) as unknown[]).length > 0;
};

/**
 * The services whose links a pod gets, as upstream's getServiceEnvVarMap picks them: the `kubernetes` service of
 * `default` always, those of the pod's namespace unless enableServiceLinks is false; only those with a ClusterIP.
 */
export const linkedServices = (pod: KubeObject, servicesIn: (namespace: string) => KubeObject[]): KubeObject[] => {
  const ns = pod.metadata?.namespace ?? 'default';
  const links = pod.spec?.enableServiceLinks !== false;
  const byName = new Map<string, KubeObject>();
  const master = servicesIn('default').find((s) => s.metadata?.name === 'kubernetes');
  if (master && hasClusterIp(master)) byName.set('kubernetes', master);
  if (links) for (const svc of servicesIn(ns)) if (svc !== master && hasClusterIp(svc)) byName.set(svc.metadata!.name!, svc);
  return [...byName.values()];
};

/** Each service's <NAME>_SERVICE_HOST, _SERVICE_PORT, _SERVICE_PORT_<PORT NAME> and Docker's link variables. */
export const serviceLinkEnv = (services: KubeObject[]): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const svc of services) {
    const ip = svc.spec!.clusterIP as string;
    const prefix = envName(svc.metadata!.name!);
    const ports = svc.spec!.ports as { name?: string; port: number; protocol?: string }[];
    env[`${prefix}_SERVICE_HOST`] = ip;
    env[`${prefix}_SERVICE_PORT`] = String(ports[0]!.port);
    for (const p of ports) if (p.name) env[`${prefix}_SERVICE_PORT_${envName(p.name)}`] = String(p.port);
    const hostPort = ip.includes(':') ? `[${ip}]` : ip;
    ports.forEach((p, i) => {
      const proto = (p.protocol ?? 'TCP').toLowerCase();
      const url = `${proto}://${hostPort}:${p.port}`;
      if (i === 0) env[`${prefix}_PORT`] = url;
      const portPrefix = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
      env[portPrefix] = url;
      env[`${portPrefix}_PROTO`] = proto;
      env[`${portPrefix}_PORT`] = String(p.port);
      env[`${portPrefix}_ADDR`] = ip;
    });
  }
  return env;
};

export const containerEnv = async (
  pod: KubeObject, c: SpecContainer,
  o: { podIp?: string; hostIp: string; get: ObjectGetter; node: NodeAllocatable; services?: KubeObject[] },
): Promise<{ name: string; value: string }[]> => {
  const ns = pod.metadata!.namespace!;
  const cache = new Map<string, KubeObject | undefined>();
  const fetch = async (kind: 'configmaps' | 'secrets', name: string): Promise<KubeObject | undefined> => {
    const key = `${kind}/${name}`;
    if (!cache.has(key)) {
      try { cache.set(key, await o.get(kind, ns, name)); } catch (e) { if (!isNotFound(e)) throw e; cache.set(key, undefined); }
    }
    return cache.get(key);
  };
  const dataOf = (kind: 'configmaps' | 'secrets', obj: KubeObject): Record<string, string> => {
    if (kind === 'configmaps') return (obj.data ?? {}) as Record<string, string>;
    return Object.fromEntries(Object.entries((obj.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  };
  const vars: Record<string, string> = {};
  const order: string[] = [];
  const put = (k: string, v: string): void => { if (!(k in vars)) order.push(k); vars[k] = v; };
  for (const from of c.envFrom ?? []) {
    const kind = from.configMapRef ? 'configmaps' : 'secrets';
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const obj = await fetch(kind, ref.name);
    if (!obj) {
      if (ref.optional) continue;
      throw new ContainerConfigError(`${kind === 'configmaps' ? 'configmap' : 'secret'} "${ref.name}" not found`);
    }
    for (const [k, v] of Object.entries(dataOf(kind, obj))) put(`${from.prefix ?? ''}${k}`, v);
  }
  const links = serviceLinkEnv(o.services ?? []);
  for (const e of c.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) { put(e.name, expandVars(e.value ?? '', { ...links, ...vars })); continue; }
    const vf = e.valueFrom;
    if (vf.fieldRef) { put(e.name, fieldValue(pod, vf.fieldRef.fieldPath, o.podIp, o.hostIp)); continue; }
    if (vf.resourceFieldRef) { put(e.name, resourceValue(pod, c, vf.resourceFieldRef, o.node)); continue; }
    const kind = vf.configMapKeyRef ? 'configmaps' : 'secrets';
    const ref = vf.configMapKeyRef ?? vf.secretKeyRef;
    if (!ref) continue;
    const what = kind === 'configmaps' ? 'configmap' : 'secret';
    const obj = await fetch(kind, ref.name);
    if (!obj) { if (ref.optional) continue; throw new ContainerConfigError(`${what} "${ref.name}" not found`); }
    const data = dataOf(kind, obj);
    if (!(ref.key in data)) { if (ref.optional) continue; throw new ContainerConfigError(`couldn't find key ${ref.key} in ${kind === 'configmaps' ? 'ConfigMap' : 'Secret'} ${ns}/${ref.name}`); }
    put(e.name, data[ref.key]!);
  }
  for (const [k, v] of Object.entries(links)) if (!(k in vars)) put(k, v);
  return order.map((name) => ({ name, value: vars[name]! }));
};
