// A small in-memory AdmissionDeps for the plugins' unit tests.
import type { KubeObject, ResourceType } from '../../api/types.js';
import type { AdmissionDeps } from './deps.js';
import type { AdmissionAttributes } from './interface.js';

export function memoryDeps(objects: Array<{ group?: string; plural: string; obj: KubeObject }> = []): AdmissionDeps & { objects: typeof objects } {
  const key = (group: string, plural: string) => `${group}/${plural}`;
  return {
    objects,
    stopped: new AbortController().signal,
    equivalents: (rt) => [rt],
    convert: async (obj) => obj,
    decode: (obj) => obj,
    resource: (group, plural) => ({ group, version: 'v1', plural, kind: plural, singular: plural, namespaced: plural !== 'namespaces', verbs: [], definition: '' }),
    get: (group, plural, namespace, name) => objects.find((o) => key(o.group ?? '', o.plural) === key(group, plural) && o.obj.metadata?.name === name && (namespace === undefined || o.obj.metadata?.namespace === namespace))?.obj,
    list: (group, plural, namespace) => objects.filter((o) => key(o.group ?? '', o.plural) === key(group, plural) && (namespace === undefined || o.obj.metadata?.namespace === namespace)).map((o) => o.obj),
    async create(group, plural, _ns, obj) {
      objects.push({ group, plural, obj });
    },
    async updateStatus(group, plural, namespace, name, change) {
      const o = objects.find((x) => key(x.group ?? '', x.plural) === key(group, plural) && x.obj.metadata?.name === name && x.obj.metadata?.namespace === namespace);
      if (!o) return;
      const s = change(structuredClone(o.obj));
      if (s !== undefined) o.obj.status = s;
    },
    watch: () => () => {},
  };
}

const CORE: Record<string, string> = { pods: 'Pod', nodes: 'Node', namespaces: 'Namespace', persistentvolumeclaims: 'PersistentVolumeClaim', services: 'Service', leases: 'Lease' };

export function attrs(plural: string, operation: AdmissionAttributes['operation'], object: KubeObject | undefined, extra: Partial<AdmissionAttributes> & { group?: string } = {}): AdmissionAttributes {
  const { group = '', ...rest } = extra;
  const rt: ResourceType = { group, version: 'v1', plural, kind: CORE[plural] ?? plural, singular: plural, namespaced: plural !== 'namespaces' && plural !== 'nodes', verbs: [], definition: '' };
  return { operation, resource: rt, namespace: rt.namespaced ? 'ns' : undefined, name: object?.metadata?.name ?? '', object, dryRun: false, warnings: [], ...rest };
}
