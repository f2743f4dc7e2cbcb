// `up` prints its ready line only once every node it started is registered and Ready: polls /api/v1/nodes.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';

export interface NodesProbe {
  server: string;
  ca: string;
  cert: string;
  key: string;
  nodes: string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

interface NodeList { items?: { metadata?: { name?: string }; status?: { conditions?: { type: string; status: string }[] } }[] }

export const waitForNodesReady = async (p: NodesProbe): Promise<void> => {
  if (!p.nodes.length) return;
  const agent = new Agent({ connect: { ca: p.ca, cert: p.cert, key: p.key } });
  const deadline = Date.now() + p.timeoutMs;
  let missing = [...p.nodes];
  try {
    for (;;) {
      p.signal?.throwIfAborted();
      try {
        const res = await request(`${p.server}/api/v1/nodes`, { dispatcher: agent, signal: p.signal, headersTimeout: 5_000, bodyTimeout: 5_000 });
        const body = await res.body.text();
        if (res.statusCode === 200) {
          const ready = new Set(((JSON.parse(body) as NodeList).items ?? [])
            .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
            .map((n) => n.metadata?.name));
          missing = p.nodes.filter((n) => !ready.has(n));
          if (!missing.length) return;
        }
      } catch {
        p.signal?.throwIfAborted();
      }
      if (Date.now() >= deadline) {
        throw new Error(`nodes not Ready after ${p.timeoutMs / 1000}s: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`);
      }
      await delay(200, undefined, { signal: p.signal });
    }
  } finally {
    await agent.close();
  }
};
