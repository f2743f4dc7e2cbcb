// What `up` applies for the components it runs on the host in place of a cluster's pods (metrics-server, the
// cluster DNS): objects server-side applied in order, and the Endpoints that point a Service without selector at
// the component's loopback port (the controller-manager's mirroring controller makes their EndpointSlice, which the
// service proxy and the DNS read).
import { connect } from 'node:net';
import { LABEL_SERVICE_NAME } from '../api/discovery/v1/index.js';
import type { Client, KubeObject } from '../pkg/client/index.js';

export interface AddonObject {
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
  obj: KubeObject;
}

const FIELD_MANAGER = 'mini-kube-up';

export interface LoopbackPort {
  name: string;
  port: number;
  protocol: 'TCP' | 'UDP';
}

/** The Endpoints of a selector-less Service at 127.0.0.1 (the nodes' address in a loopback up). */
export const loopbackEndpoints = (name: string, namespace: string, labels: Record<string, string>, ports: LoopbackPort[]): AddonObject => ({
  group: '', version: 'v1', resource: 'endpoints', namespaced: true,
  obj: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports }] },
});

/** Until something accepts TCP connections on 127.0.0.1:port, or the deadline passes (false). */
export async function listening(port: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1').once('connect', () => { s.destroy(); resolve(true); }).once('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * Until the controller-manager's mirroring controller has made the Service's EndpointSlice with an endpoint (what
 * the service proxy and the DNS read), or the deadline passes (false).
 */
export async function mirrored(client: Client, namespace: string, service: string, deadline: number): Promise<boolean> {
  const slices = client.resource({ group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', namespaced: true }, namespace);
  while (Date.now() < deadline) {
    const list = await slices.list({ labelSelector: `${LABEL_SERVICE_NAME}=${service}` }).catch(() => undefined);
    if (list?.items.some((s) => (s.endpoints as unknown[] | undefined)?.length)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Server-side applies each object in order (`before` runs first for each, to wait for what it needs). */
export async function applyAddonObjects(client: Client, objects: AddonObject[], before?: (obj: KubeObject) => Promise<unknown>): Promise<void> {
  for (const { obj, ...ref } of objects) {
    await before?.(obj);
    await client.resource({ ...ref, kind: obj.kind! }).apply(obj, { fieldManager: FIELD_MANAGER, force: true });
  }
}
