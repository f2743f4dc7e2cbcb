// A container's environment as upstream's makeEnvironmentVariables builds it: envFrom (configMapRef, secretRef,
// with prefix), then env (value with $(VAR) expansion, valueFrom fieldRef / resourceFieldRef / configMapKeyRef /
// secretKeyRef). A missing ConfigMap, Secret or key that is not optional fails with CreateContainerConfigError.
import { isNotFound, type KubeObject } from '../client/index.js';

export type ObjectGetter = (kind: 'configmaps' | 'secrets', namespace: string, name: string) => Promise<KubeObject | undefined>;

export class ContainerConfigError extends Error {
  override name = 'ContainerConfigError';
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: { containerName?: string; resource: string; divisor?: string };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    secretKeyRef?: { name: string; key: string; optional?: boolean };
  };
}
interface EnvFrom { prefix?: string; configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }
interface SpecContainer { name: string; env?: EnvVar[]; envFrom?: EnvFrom[]; resources?: { limits?: Record<string, string>; requests?: Record<string, string> } }

/** $(VAR) expands from `vars`; $$(VAR) is an escaped $(VAR); unknown references stay as written. */
export const expandVars = (s: string, vars: Record<string, string>): string =>
  s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name?: string) => (m === '$$' ? '$' : name !== undefined && name in vars ? vars[name]! : m));

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

const quantity = (q: string): number => {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q);
  if (!m) return Number(q) || 0;
  const n = Number(m[1]);
  const mult: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  return n * (mult[m[2]!] ?? 1);
};

const resourceValue = (pod: KubeObject, c: SpecContainer, ref: NonNullable<EnvVar['valueFrom']>['resourceFieldRef'] & object, node: { cpu: string; memory: string }): string => {
  const target = ref.containerName ? ((pod.spec?.containers ?? []) as SpecContainer[]).find((x) => x.name === ref.containerName) ?? c : c;
  const [kind, res] = ref.resource.split('.') as [string, string];
  const set = kind === 'limits' ? target.resources?.limits : target.resources?.requests;
  const raw = set?.[res] ?? (kind === 'limits' ? (res === 'cpu' ? node.cpu : res === 'memory' ? node.memory : '0') : '0');
  const divisor = quantity(ref.divisor ?? '1');
  const value = quantity(raw) / (divisor || 1);
  return String(res === 'cpu' ? Math.ceil(value) : Math.ceil(value));
};

export const containerEnv = async (
  pod: KubeObject, c: SpecContainer, o: { podIp?: string; hostIp: string; get: ObjectGetter; node: { cpu: string; memory: string } },
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
  for (const e of c.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) { put(e.name, expandVars(e.value ?? '', vars)); continue; }
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
  return order.map((name) => ({ name, value: vars[name]! }));
};
