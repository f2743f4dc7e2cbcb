// The Node authorizer (upstream: plugin/pkg/auth/authorizer/node): a kubelet (`system:node:NAME` in
// `system:nodes`) reads its own Node, the pods bound to it and the secrets, configmaps, claims and volumes
// those pods use; it writes its Node and its status, its pods' status, events, its Lease, and mirror pods.
// Everything else system:node grants comes from NODE_RULES; nothing matching is no opinion, never deny.
import type { KubeObject } from '../../api/types.js';
import type { ObjectCache } from './cache.js';
import type { Attributes, AuthorizationResult, Authorizer } from './interface.js';
import { NODE_RULES } from './rbac/policy.js';
import { rulesAllow } from './rbac/rules.js';

export const NODES_GROUP = 'system:nodes';
const NODE_PREFIX = 'system:node:';
const LEASE_NAMESPACE = 'kube-node-lease';

export interface NodeCaches {
  pods: ObjectCache;
  persistentVolumeClaims?: ObjectCache;
}

const allow: AuthorizationResult = { decision: 'allow', reason: '' };
const noOpinion = (reason: string): AuthorizationResult => ({ decision: 'noopinion', reason });
const READ = new Set(['get', 'list', 'watch']);

type RefKind = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts';
const REF_KINDS: readonly RefKind[] = ['secrets', 'configmaps', 'persistentvolumeclaims', 'serviceaccounts'];

/**
 * What the authorizer keeps of a bound pod: its namespace and the names it references (upstream's graph edges), and
 * what tells whether those can have changed (its uid, its ephemeral containers: the rest of a pod's spec is immutable).
 */
type BoundPod = { namespace: string | undefined; uid: unknown; ephemeral: string | undefined } & Record<RefKind, readonly string[]>;

const ephemeralOf = (pod: KubeObject): string | undefined =>
  pod.spec?.ephemeralContainers === undefined ? undefined : JSON.stringify(pod.spec.ephemeralContainers);

const boundPodOf = (pod: KubeObject): BoundPod => {
  const out = { namespace: pod.metadata?.namespace, uid: pod.metadata?.uid, ephemeral: ephemeralOf(pod) } as BoundPod & Record<RefKind, string[]>;
  for (const kind of REF_KINDS) out[kind] = podReferences(pod, kind);
  return out;
};

/**
 * Pods by the node they are bound to, kept current from the pods' watch cache. Only the references are kept, not
 * the pods: holding every bound pod parsed would keep the whole pod set on the heap for the garbage collector
 * to mark again and again.
 */
class PodIndex {
  private readonly nodeOf = new Map<string, string>();
  private readonly byNode = new Map<string, Map<string, BoundPod>>();

  constructor(pods: ObjectCache) {
    pods.subscribe((pod, type) => this.apply(pod, type === 'DELETED'));
    for (const p of pods.list()) this.apply(p, false);
  }

  private apply(pod: KubeObject, deleted: boolean): void {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    const before = this.nodeOf.get(key);
    const node = deleted ? undefined : (pod.spec?.nodeName as string | undefined);
    // a status update, mostly: same node, same pod, same ephemeral containers, so the same references (upstream's
    // graph populator skips these updates too)
    const known = node !== undefined && before === node ? this.byNode.get(node)?.get(key) : undefined;
    if (known && known.uid === pod.metadata?.uid && known.ephemeral === ephemeralOf(pod)) return;
    if (before !== undefined) this.byNode.get(before)?.delete(key);
    if (!node) {
      this.nodeOf.delete(key);
      return;
    }
    this.nodeOf.set(key, node);
    let m = this.byNode.get(node);
    if (!m) this.byNode.set(node, (m = new Map()));
    m.set(key, boundPodOf(pod));
  }

  on(node: string): Iterable<BoundPod> {
    return this.byNode.get(node)?.values() ?? [];
  }

  boundTo(namespace: string, name: string): string | undefined {
    return this.nodeOf.get(`${namespace}/${name}`);
  }
}

/** The names of objects of `kind` that a pod references (upstream: the graph populator's edges). */
export function podReferences(pod: KubeObject, kind: RefKind): string[] {
  const spec = pod.spec ?? {};
  const out = new Set<string>();
  const add = (n: unknown): void => {
    if (typeof n === 'string' && n) out.add(n);
  };
  if (kind === 'serviceaccounts') add(spec.serviceAccountName || 'default');
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])] as KubeObject[];
  if (kind === 'secrets') for (const s of spec.imagePullSecrets ?? []) add(s.name);
  for (const c of containers) {
    for (const e of c.envFrom ?? []) {
      if (kind === 'secrets') add(e.secretRef?.name);
      if (kind === 'configmaps') add(e.configMapRef?.name);
    }
    for (const e of c.env ?? []) {
      if (kind === 'secrets') add(e.valueFrom?.secretKeyRef?.name);
      if (kind === 'configmaps') add(e.valueFrom?.configMapKeyRef?.name);
    }
  }
  for (const v of spec.volumes ?? []) {
    if (kind === 'secrets') {
      add(v.secret?.secretName);
      for (const plugin of Object.values(v as Record<string, any>)) {
        if (plugin && typeof plugin === 'object') {
          add(plugin.secretRef?.name);
          add(plugin.nodePublishSecretRef?.name);
          add(plugin.controllerPublishSecretRef?.name);
        }
      }
      for (const src of v.projected?.sources ?? []) add(src.secret?.name);
    }
    if (kind === 'configmaps') {
      add(v.configMap?.name);
      for (const src of v.projected?.sources ?? []) add(src.configMap?.name);
    }
    if (kind === 'persistentvolumeclaims') {
      add(v.persistentVolumeClaim?.claimName);
      if (v.ephemeral) add(`${pod.metadata?.name}-${v.name}`);
    }
  }
  return [...out];
}

/** The value of `field` pinned with = or == in a field selector, if any. */
export function fieldSelectorValue(selector: string | undefined, field: string): string | undefined {
  for (const term of (selector ?? '').split(',')) {
    const m = /^\s*([^!=\s]+)\s*==?\s*(.*?)\s*$/.exec(term);
    if (m && m[1] === field) return m[2];
  }
  return undefined;
}

export function nodeAuthorizer(caches: NodeCaches): Authorizer {
  const pods = new PodIndex(caches.pods);

  const related = (node: string, kind: RefKind, namespace: string, name: string): boolean => {
    for (const pod of pods.on(node)) {
      if (pod.namespace === namespace && pod[kind].includes(name)) return true;
    }
    return false;
  };
  const relatedPv = (node: string, name: string): boolean => {
    const pvcs = caches.persistentVolumeClaims;
    if (!pvcs) return false;
    for (const pod of pods.on(node)) {
      for (const claim of pod.persistentvolumeclaims) {
        if (pvcs.get(pod.namespace, claim)?.spec?.volumeName === name) return true;
      }
    }
    return false;
  };
  const noRelation = (node: string): AuthorizationResult => noOpinion(`no relationship found between node '${node}' and this object`);

  const readNamespaced = (node: string, a: Attributes, kind: 'secrets' | 'configmaps'): AuthorizationResult => {
    if (!READ.has(a.verb)) return noOpinion(`can only read resources of this type`);
    if (a.subresource) return noOpinion(`cannot read subresource`);
    if (!a.namespace) return noOpinion(`can only read namespaced object of this type`);
    if (!a.name) return noOpinion(`can only read individual resources of this type`);
    return related(node, kind, a.namespace, a.name) ? allow : noRelation(node);
  };

  const decide = (node: string, a: Attributes): AuthorizationResult => {
    if (a.isResourceRequest && a.apiGroup === '') {
      switch (a.resource) {
        case 'secrets':
        case 'configmaps':
          return readNamespaced(node, a, a.resource);
        case 'persistentvolumeclaims': {
          const status = a.subresource === 'status';
          if (status ? !['get', 'update', 'patch'].includes(a.verb) : a.verb !== 'get') return noOpinion(status ? 'can only get, update or patch claim status' : 'can only get individual resources of this type');
          if (a.subresource && !status) return noOpinion('cannot get subresource');
          return a.name && related(node, 'persistentvolumeclaims', a.namespace, a.name) ? allow : noRelation(node);
        }
        case 'persistentvolumes':
          if (a.verb !== 'get' || a.subresource) return noOpinion('can only get individual resources of this type');
          return a.name && relatedPv(node, a.name) ? allow : noRelation(node);
        case 'serviceaccounts':
          if (a.verb !== 'create' || a.subresource !== 'token' || !a.name) return noOpinion('can only create tokens for individual service accounts');
          return related(node, 'serviceaccounts', a.namespace, a.name) ? allow : noRelation(node);
        case 'nodes':
          return authorizeNode(node, a);
        case 'pods':
          return authorizePod(node, a);
        default:
      }
    }
    if (a.isResourceRequest && a.apiGroup === 'coordination.k8s.io' && a.resource === 'leases') {
      if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion(`can only get, create, update, patch, or delete a node lease`);
      if (a.namespace !== LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${LEASE_NAMESPACE}" system namespace`);
      if (a.verb !== 'create' && a.name !== node) return noOpinion(`can only access node lease with the same name as the requesting node`);
      return allow;
    }
    return rulesAllow(a, NODE_RULES) ? allow : noOpinion('');
  };

  const authorizeNode = (node: string, a: Attributes): AuthorizationResult => {
    if (!a.subresource) {
      if (a.verb === 'create') return allow;
      if (a.verb === 'update' || a.verb === 'patch') return a.name === node ? allow : noOpinion(`node '${node}' cannot modify node '${a.name}'`);
      if (READ.has(a.verb)) {
        if (a.name === node) return allow;
        return noOpinion(a.name ? `node '${node}' cannot read '${a.name}', only its own Node object` : `node '${node}' cannot read all nodes, only its own Node object`);
      }
    }
    if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return a.name === node ? allow : noOpinion(`node '${node}' cannot modify node '${a.name}'`);
    }
    return noOpinion('');
  };

  const authorizePod = (node: string, a: Attributes): AuthorizationResult => {
    if (!a.subresource) {
      if (a.verb === 'get') return pods.boundTo(a.namespace, a.name) === node ? allow : noRelation(node);
      if (a.verb === 'list' || a.verb === 'watch') {
        return fieldSelectorValue(a.fieldSelector, 'spec.nodeName') === node ? allow : noOpinion(`can only list/watch pods with spec.nodeName field selector`);
      }
      // Mirror pods: create and delete (the NodeRestriction admission plugin narrows these).
      if (a.verb === 'create' || a.verb === 'delete') return allow;
      return noOpinion('');
    }
    if (a.subresource === 'status') {
      if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('');
      return pods.boundTo(a.namespace, a.name) === node ? allow : noRelation(node);
    }
    return rulesAllow(a, NODE_RULES) ? allow : noOpinion('');
  };

  return {
    name: 'Node',
    authorize(a) {
      if (!a.user.groups.includes(NODES_GROUP)) return noOpinion('');
      if (!a.user.name.startsWith(NODE_PREFIX)) return noOpinion('');
      const node = a.user.name.slice(NODE_PREFIX.length);
      if (!node) return noOpinion(`unknown node for user "${a.user.name}"`);
      return decide(node, a);
    },
  };
}
