import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import type { ObjectCache } from './cache.js';
import { nodeAuthorizer, NODES_GROUP } from './node.js';

/** A pods cache whose changes the test makes. */
function podsCache() {
  const objects = new Map<string, KubeObject>();
  const subscribers: Array<(obj: KubeObject, type: 'ADDED' | 'MODIFIED' | 'DELETED') => void> = [];
  const cache: ObjectCache = {
    get: (ns, name) => objects.get(`${ns}/${name}`),
    list: () => [...objects.values()],
    subscribe: (fn) => { subscribers.push(fn); return () => undefined; },
    stale: () => false,
    fresh: async () => undefined,
  };
  const write = (pod: KubeObject, type: 'ADDED' | 'MODIFIED' | 'DELETED' = 'MODIFIED'): void => {
    const key = `${pod.metadata!.namespace}/${pod.metadata!.name}`;
    if (type === 'DELETED') objects.delete(key);
    else objects.set(key, pod);
    for (const fn of subscribers) fn(pod, type);
  };
  return { cache, write };
}

const pod = (spec: Record<string, unknown>, uid = 'u1', status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'pause' }], ...spec }, status,
});

const canGetSecret = async (authz: ReturnType<typeof nodeAuthorizer>, name: string): Promise<boolean> => (await authz.authorize({
  user: { name: 'system:node:n1', groups: [NODES_GROUP] }, verb: 'get', isResourceRequest: true, path: `/api/v1/namespaces/ns/secrets/${name}`,
  namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'secrets', subresource: '', name,
})).decision === 'allow';

describe('the Node authorizer following pods', () => {
  it('a node reads the secrets its pods reference, through status updates, an added ephemeral container, a new pod of the same name', async () => {
    const pods = podsCache();
    const authz = nodeAuthorizer({ pods: pods.cache });
    const env = (secret: string) => [{ name: 'e', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }];
    pods.write(pod({ containers: [{ name: 'c', image: 'pause', env: env('s1') }] }), 'ADDED');
    expect(await canGetSecret(authz, 's1')).toBe(true);
    expect(await canGetSecret(authz, 's2')).toBe(false);

    // a status update changes no reference
    pods.write(pod({ containers: [{ name: 'c', image: 'pause', env: env('s1') }] }, 'u1', { phase: 'Running' }));
    expect(await canGetSecret(authz, 's1')).toBe(true);

    // an ephemeral container (kubectl debug) referencing another secret
    pods.write(pod({ containers: [{ name: 'c', image: 'pause', env: env('s1') }], ephemeralContainers: [{ name: 'dbg', image: 'busybox', env: env('s2') }] }));
    expect(await canGetSecret(authz, 's2')).toBe(true);

    // the pod deleted and made again under its name, without the references
    pods.write(pod({}), 'DELETED');
    expect(await canGetSecret(authz, 's1')).toBe(false);
    pods.write(pod({ containers: [{ name: 'c', image: 'pause', env: env('s1') }] }, 'u2'), 'ADDED');
    pods.write(pod({}, 'u3'));
    expect(await canGetSecret(authz, 's1')).toBe(false);
  });
});
