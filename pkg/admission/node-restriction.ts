// NodeRestriction: a kubelet (user system:node:NAME in group system:nodes) may change only its own
// Node (and never the node-restriction.kubernetes.io/ labels), create only mirror pods bound to
// itself, and touch only pods bound to it (upstream: plugin/pkg/admission/noderestriction).
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../authentication/interface.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';
import { MIRROR_POD_ANNOTATION } from '../../api/core/v1/annotations.js';
import { jsonEqual } from '../apimachinery/json-equal.js';

const NODE_PREFIX = 'system:node:';

const ALLOWED_LABELS = new Set([
  'kubernetes.io/hostname', 'kubernetes.io/arch', 'kubernetes.io/os', 'beta.kubernetes.io/arch', 'beta.kubernetes.io/os',
  'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type', 'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/region', 'topology.kubernetes.io/zone',
]);

const inDomain = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`);

/** Labels a kubelet may not set on its Node (upstream: getForbiddenLabels). */
export function isForbiddenNodeLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const ns = key.slice(0, slash);
  if (inDomain(ns, 'node-restriction.kubernetes.io')) return true;
  if (!inDomain(ns, 'kubernetes.io') && !inDomain(ns, 'k8s.io')) return false;
  if (inDomain(ns, 'kubelet.kubernetes.io') || inDomain(ns, 'node.kubernetes.io')) return false;
  return !ALLOWED_LABELS.has(key);
}

/** The node a user speaks for: undefined for non-nodes, '' for a node identity without a name. */
export function nodeIdentity(user: UserInfo | undefined): string | undefined {
  if (!user?.groups.includes('system:nodes')) return undefined;
  return user.name.startsWith(NODE_PREFIX) ? user.name.slice(NODE_PREFIX.length) : '';
}

export class NodeRestriction implements ValidatingPlugin {
  readonly name = 'NodeRestriction';

  constructor(private readonly deps: Pick<AdmissionDeps, 'get'>) {}

  validate(a: AdmissionAttributes): void {
    const node = nodeIdentity(a.user);
    if (node === undefined) return;
    if (node === '') throw admissionForbidden(a, `could not determine node from user "${a.user!.name}"`);
    if (isResource(a, '', 'pods')) return this.pod(a, node);
    if (isResource(a, '', 'nodes')) return this.node(a, node);
    if (isResource(a, 'coordination.k8s.io', 'leases')) return this.lease(a, node);
    if (isResource(a, 'storage.k8s.io', 'csinodes') && (a.name || a.object?.metadata?.name) !== node) {
      throw admissionForbidden(a, `node "${node}" is not allowed to modify object "${a.name || a.object?.metadata?.name}"`);
    }
  }

  private pod(a: AdmissionAttributes, node: string): void {
    const current = a.oldObject ?? (a.namespace ? this.deps.get('', 'pods', a.namespace, a.name) : undefined);
    switch (a.subresource ?? '') {
      case '':
        if (a.operation === 'CREATE') return this.podCreate(a, node);
        if (a.operation === 'DELETE') {
          if (current && current.spec?.nodeName !== node) throw admissionForbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
          return;
        }
        throw admissionForbidden(a, `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
      case 'status':
        if (current?.spec?.nodeName !== node) throw admissionForbidden(a, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
        // a status write may carry labels (upstream's status strategy lets them through): not a kubelet's
        if (a.object && !jsonEqual(a.object.metadata?.labels ?? {}, current.metadata?.labels ?? {})) {
          throw admissionForbidden(a, `node "${node}" cannot update labels through pod status`);
        }
        if (a.object && !jsonEqual(a.object.status?.resourceClaimStatuses ?? [], current.status?.resourceClaimStatuses ?? [])) {
          throw admissionForbidden(a, `node "${node}" cannot update resource claim statues`);
        }
        return;
      case 'eviction':
        if (current && current.spec?.nodeName !== node) throw admissionForbidden(a, `node "${node}" can only evict pods with spec.nodeName set to itself`);
        return;
      default:
        throw admissionForbidden(a, `unexpected subresource "${a.subresource}", node "${node}" can only update pod status`);
    }
  }

  private podCreate(a: AdmissionAttributes, node: string): void {
    const pod = a.object!;
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
      throw admissionForbidden(a, `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
    }
    if (pod.spec?.nodeName !== node) throw admissionForbidden(a, `node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata?.ownerReferences ?? [];
    if (owners.length > 1) throw admissionForbidden(a, `node "${node}" can only create pods with a single owner reference set to itself`);
    if (owners.length === 1) {
      const o = owners[0]!;
      if (o.apiVersion !== 'v1' || o.kind !== 'Node' || o.name !== node || !o.controller) {
        throw admissionForbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
      }
      const n = this.deps.get('', 'nodes', undefined, node);
      if (n && n.metadata?.uid !== o.uid) throw admissionForbidden(a, `node ${node} UID mismatch: expected ${n.metadata?.uid} got ${o.uid}`);
    }
    const spec = pod.spec ?? {};
    if (spec.serviceAccountName) throw admissionForbidden(a, `node "${node}" can not create pods that reference a service account`);
    const volumes = (spec.volumes ?? []) as KubeObject[];
    const envFrom = (kind: 'secretRef' | 'configMapRef', key: 'secretKeyRef' | 'configMapKeyRef'): boolean =>
      [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].some((c: KubeObject) =>
        (c.envFrom ?? []).some((e: KubeObject) => e[kind]) || (c.env ?? []).some((e: KubeObject) => e.valueFrom?.[key]));
    const projected = (k: string): boolean => volumes.some((v) => (v.projected?.sources ?? []).some((s: KubeObject) => s[k]));
    if (volumes.some((v) => v.secret) || projected('secret') || envFrom('secretRef', 'secretKeyRef') || (spec.imagePullSecrets ?? []).length > 0) {
      throw admissionForbidden(a, `node "${node}" can not create pods that reference secrets`);
    }
    if (volumes.some((v) => v.configMap) || projected('configMap') || envFrom('configMapRef', 'configMapKeyRef')) {
      throw admissionForbidden(a, `node "${node}" can not create pods that reference configmaps`);
    }
    if (volumes.some((v) => v.persistentVolumeClaim || v.ephemeral)) throw admissionForbidden(a, `node "${node}" can not create pods that reference persistentvolumeclaims`);
  }

  private node(a: AdmissionAttributes, node: string): void {
    const requested = a.operation === 'CREATE' ? a.object?.metadata?.name : a.name;
    if (requested !== node) throw admissionForbidden(a, `node "${node}" is not allowed to modify node "${requested}"`);
    if (a.operation === 'CREATE' && a.object) {
      const bad = Object.keys(a.object.metadata?.labels ?? {}).filter(isForbiddenNodeLabel).sort();
      if (bad.length) throw admissionForbidden(a, `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
    }
    if (a.operation === 'UPDATE' && a.object && a.oldObject) {
      if (JSON.stringify(a.object.spec?.taints ?? []) !== JSON.stringify(a.oldObject.spec?.taints ?? [])) {
        throw admissionForbidden(a, `node "${node}" is not allowed to modify taints`);
      }
      const now: Record<string, string> = a.object.metadata?.labels ?? {};
      const old: Record<string, string> = a.oldObject.metadata?.labels ?? {};
      const changed = [...new Set([...Object.keys(now), ...Object.keys(old)])].filter((k) => now[k] !== old[k] && isForbiddenNodeLabel(k)).sort();
      if (changed.length) throw admissionForbidden(a, `node "${node}" is not allowed to modify labels: ${changed.join(', ')}`);
    }
  }

  private lease(a: AdmissionAttributes, node: string): void {
    if (a.namespace !== 'kube-node-lease') throw admissionForbidden(a, `can only access leases in the "kube-node-lease" system namespace`);
    const requested = a.operation === 'CREATE' ? a.object?.metadata?.name : a.name;
    if (requested !== node) throw admissionForbidden(a, 'can only access node lease with the same name as the requesting node');
  }
}
