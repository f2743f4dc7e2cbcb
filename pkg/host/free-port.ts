// Ports for servers started as child processes, which must be told their port before they listen.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the kernel takes the ports of listeners on port 0 and of outgoing connections. */
const ephemeralLow = ((): number => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768; // not Linux: IANA's dynamic range starts higher still
  }
})();
/** The default service node port range (30000-32767): service proxies listen there. */
const NODE_PORTS_LOW = 30_000;
const LOW = 10_000;
const handedOut = new Set<number>();

/**
 * A port free on `host` now (closed again before its server listens). Taken below the kernel's ephemeral range, where
 * the listeners on port 0 and the outgoing connections of every other program take theirs, and below the node ports;
 * never the same twice in one process. Any of these could take a port between this check and the child's listen,
 * which then fails with EADDRINUSE.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (Math.min(ephemeralLow, NODE_PORTS_LOW) - LOW));
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, host, () => s.close(() => resolve(true)));
    });
    if (!free) continue;
    handedOut.add(port);
    return port;
  }
}
