// What the chain does when a response ends, behind one 'close' listener per response: a proxied response has many
// of its own already (fastify's, the proxy's abort, a pipe's), and Node warns past ten.
import type { EventEmitter } from 'node:events';

const callbacks = new WeakMap<EventEmitter, (() => void)[]>();

/** Calls `fn` once `res` closes (finished or aborted: 'close' follows both). */
export function onResponseClose(res: EventEmitter, fn: () => void): void {
  let list = callbacks.get(res);
  if (!list) {
    const mine: (() => void)[] = (list = []);
    callbacks.set(res, mine);
    res.once('close', () => { for (const f of mine) f(); });
  }
  list.push(fn);
}
