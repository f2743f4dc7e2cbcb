// Polls an HTTPS health endpoint with a client certificate until it answers 200, the deadline passes or we are told to stop.
import { createSecureContext } from 'node:tls';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';

export interface ReadinessProbe {
  url: string;
  ca: string;
  cert: string;
  key: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Stops waiting at once (a child died): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export const waitForReady = async (p: ReadinessProbe): Promise<void> => {
  // one TLS context for every attempt: made per connection from the PEMs, it cost ~15 ms of CPU each time the
  // server refused one, while the apiserver it waits for was starting on the same cores
  const agent = new Agent({ connect: { secureContext: createSecureContext({ ca: p.ca, cert: p.cert, key: p.key }) } });
  const deadline = Date.now() + p.timeoutMs;
  let last = 'no answer';
  try {
    for (;;) {
      p.signal?.throwIfAborted();
      try {
        const res = await request(p.url, { dispatcher: agent, signal: p.signal, headersTimeout: 2_000, bodyTimeout: 2_000 });
        const body = await res.body.text();
        if (res.statusCode === 200) return;
        last = `HTTP ${res.statusCode}: ${body.trim().slice(0, 300)}`;
      } catch (e) {
        p.signal?.throwIfAborted();
        last = (e as Error).message;
      }
      if (Date.now() >= deadline) throw new Error(`${p.url} not ready after ${p.timeoutMs / 1000}s (last: ${last})`);
      await delay(p.intervalMs ?? 25, undefined, { signal: p.signal });
    }
  } finally {
    await agent.close();
  }
};
