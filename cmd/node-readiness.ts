// `up` starts the add-ons once every node it started is registered, and prints its ready line only once each is
// Ready: polls /api/v1/nodes. Ready from this start, that is: a Node left Ready by the cluster's last run says so
// until the node lifecycle controller marks it Unknown, 40 s on, while its kubelet is still starting and the Node
// still names the old kubelet's port (`kubectl logs` and `exec` would reach nothing). The kubelet posts its status as
// it starts, heartbeat included.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';

export interface NodesProbe {
  server: string;
  ca: string;
  cert: string;
  key: string;
  nodes: string[];
  /** When this start began (ms since the epoch): a Ready condition counts if its heartbeat is no older. */
  since: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

interface NodeList { items?: { metadata?: { name?: string }; spec?: { podCIDR?: string }; status?: { conditions?: { type: string; status: string; lastHeartbeatTime?: string }[] } }[] }

/**
 * Until every node is Ready from this start or, with `registered`, has a status from this start (its kubelet
 * registered it or, on a kept data dir, found it and posted its status; the Node a last run left says nothing) and
 * its pod range (node-ipam's, kept from the last run too).
 */
export const waitForNodesReady = async (p: NodesProbe, registered = false): Promise<void> => {
  if (!p.nodes.length) return;
  const agent = new Agent({ connect: { ca: p.ca, cert: p.cert, key: p.key } });
  const deadline = Date.now() + p.timeoutMs;
  const since = Math.floor(p.since / 1000) * 1000; // heartbeats are whole seconds
  let missing = [...p.nodes];
  try {
    for (;;) {
      p.signal?.throwIfAborted();
      try {
        const res = await request(`${p.server}/api/v1/nodes`, { dispatcher: agent, signal: p.signal, headersTimeout: 5_000, bodyTimeout: 5_000 });
        const body = await res.body.text();
        if (res.statusCode === 200) {
          const fresh = (c: { lastHeartbeatTime?: string }): boolean => Date.parse(c.lastHeartbeatTime ?? '') >= since;
          const ready = new Set(((JSON.parse(body) as NodeList).items ?? [])
            .filter((n) => (registered
              ? Boolean(n.spec?.podCIDR) && n.status?.conditions?.some(fresh)
              : n.status?.conditions?.some((c) => fresh(c) && c.type === 'Ready' && c.status === 'True')))
            .map((n) => n.metadata?.name));
          missing = p.nodes.filter((n) => !ready.has(n));
          if (!missing.length) return;
        }
      } catch {
        p.signal?.throwIfAborted();
      }
      if (Date.now() >= deadline) {
        throw new Error(`nodes not ${registered ? 'registered' : 'Ready'} after ${p.timeoutMs / 1000}s: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`);
      }
      await delay(200, undefined, { signal: p.signal });
    }
  } finally {
    await agent.close();
  }
};
