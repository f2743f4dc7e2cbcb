// The port of a proxy's target as Go's net.Dial reads the "host:port" that upstream's pods/proxy builds from the
// request: digits are the number, anything else a TCP service name (Go's own table, then /etc/services), so
// `pods/web:http/proxy` reaches port 80, not the container port named http.
import { readFileSync } from 'node:fs';

/** Go's net package answers these names without /etc/services (lookup.go's services). */
const GO_TCP_SERVICES: Record<string, number> = {
  ftp: 21, ftps: 990, gopher: 70, http: 80, https: 443, imap2: 143, imap3: 220, imaps: 993, pop3: 110, pop3s: 995,
  smtp: 25, submissions: 465, ssh: 22, telnet: 23,
};

let tcpServices: Map<string, number> | undefined;

/** Go's table, then each tcp line of /etc/services (`name port/tcp aliases… # comment`) that it does not name. */
function services(): Map<string, number> {
  if (tcpServices) return tcpServices;
  tcpServices = new Map(Object.entries(GO_TCP_SERVICES));
  let text = '';
  try { text = readFileSync('/etc/services', 'utf8'); } catch { /* none: Go's table alone */ }
  for (const line of text.split('\n')) {
    const [name, portProto, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    const m = /^(\d+)\/tcp$/.exec(portProto ?? '');
    if (!name || !m) continue;
    for (const n of [name, ...aliases]) if (!tcpServices.has(n.toLowerCase())) tcpServices.set(n.toLowerCase(), Number(m[1]));
  }
  return tcpServices;
}

/** The port to dial, or the error Go's dial gives for it. */
export function dialPort(port: string): { port: number } | { error: string } {
  if (/^[+-]?\d+$/.test(port)) {
    const n = Number(port);
    return n >= 0 && n <= 0xffff ? { port: n } : { error: `dial tcp: address ${port}: invalid port` };
  }
  const n = services().get(port.toLowerCase());
  return n === undefined ? { error: `dial tcp: lookup tcp/${port}: unknown port` } : { port: n };
}
