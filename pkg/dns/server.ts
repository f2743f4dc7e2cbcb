// The DNS server: UDP and TCP (length-prefixed) on one port; the cluster zone and reverse names of cluster addresses
// answered from the ClusterView, everything else relayed to the host's resolvers, as CoreDNS's forward plugin does.
import { randomInt } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Packet } from 'dns-packet';
import type { Logger } from 'pino';
import { lookup, soa, type ClusterView } from './records.js';

const NXDOMAIN = 3;
const SERVFAIL = 2;
const FORMERR = 1;
/** Without EDNS a UDP answer is at most 512 bytes; past that it is truncated and the client asks over TCP. */
const UDP_LIMIT = 512;
const FORWARD_TIMEOUT_MS = 2000;

export interface DnsServerOptions {
  view: ClusterView;
  /** The cluster domain (cluster.local). */
  zone: string;
  /** The host's resolvers. */
  upstreams: { host: string; port: number }[];
  logger: Logger;
}

export class DnsServer {
  private udp?: UdpSocket;
  private tcp?: Server;
  private readonly conns = new Set<Socket>();
  private readonly zone: string;

  constructor(private readonly o: DnsServerOptions) {
    this.zone = o.zone.replace(/\.$/, '').toLowerCase();
  }

  /** Listens on host:port over UDP and TCP (port 0: one free for both); returns the port. */
  /**
   * Serves UDP and TCP on one port; with port 0, the port the system gave UDP, tried again on another when TCP finds
   * it taken (another process may hold that TCP port).
   */
  async listen(host: string, port: number): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const udp = await this.bindUdp(host, port);
      const bound = udp.address().port;
      const tcp = createServer((c) => this.serveTcp(c));
      try {
        await new Promise<void>((resolve, reject) => { tcp.once('error', reject); tcp.listen(bound, host, () => { tcp.off('error', reject); resolve(); }); });
      } catch (err) {
        udp.close();
        if (port !== 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 10) throw err;
        continue;
      }
      this.udp = udp;
      this.tcp = tcp;
      return bound;
    }
  }

  private async bindUdp(host: string, port: number): Promise<UdpSocket> {
    const udp = createSocket('udp4');
    udp.on('message', (msg, from) => {
      this.answer(msg, UDP_LIMIT).then((reply) => { if (reply) udp.send(reply, from.port, from.address); }, (err: unknown) => this.o.logger.warn({ err }, 'query failed'));
    });
    await new Promise<void>((resolve, reject) => { udp.once('error', reject); udp.bind(port, host, () => { udp.off('error', reject); resolve(); }); });
    udp.on('error', (err) => this.o.logger.warn({ err }, 'UDP socket error'));
    return udp;
  }

  close(): void {
    this.udp?.close();
    this.tcp?.close();
    for (const c of this.conns) c.destroy();
  }

  private serveTcp(c: Socket): void {
    this.conns.add(c);
    c.on('close', () => this.conns.delete(c));
    c.on('error', () => c.destroy());
    c.setTimeout(10_000, () => c.destroy());
    let buf = Buffer.alloc(0);
    c.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
        buf = buf.subarray(2 + msg.length);
        this.answer(msg, 65_535).then((reply) => {
          if (!reply || c.destroyed) return;
          const len = Buffer.alloc(2);
          len.writeUInt16BE(reply.length);
          c.write(Buffer.concat([len, reply]));
        }, () => c.destroy());
      }
    });
  }

  /** The reply to one query message (undefined: nothing to say, as to a message that is not a query). */
  async answer(msg: Buffer, limit: number): Promise<Buffer | undefined> {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return msg.length >= 2 ? dnsPacket.encode({ type: 'response', id: msg.readUInt16BE(0), flags: FORMERR }) : undefined;
    }
    if (query.type !== 'query') return undefined;
    const q = query.questions?.[0];
    const rd = query.flags! & dnsPacket.RECURSION_DESIRED;
    if (!q) return dnsPacket.encode({ type: 'response', id: query.id, flags: FORMERR | rd });
    const asked = q.name.replace(/\.$/, '');
    const name = asked.toLowerCase();
    const found = lookup(this.o.view, this.zone, name, q.type);
    if (!found) return this.forward(msg, query);
    if (found.external) {
      const theirs = await this.resolve(found.external, q.type);
      found.answers = theirs ? [...found.answers, ...theirs] : [];
    }
    for (const a of found.answers) if (a.name === name) a.name = asked; // the question's case, as CoreDNS keeps it
    const reply: Packet = {
      type: 'response', id: query.id, questions: [q],
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | rd | (found.exists ? 0 : NXDOMAIN),
      answers: found.answers, additionals: found.additionals ?? [],
      authorities: found.answers.length ? [] : [soa(this.zone)],
    };
    const out = dnsPacket.encode(reply);
    if (out.length <= limit) return out;
    return dnsPacket.encode({ ...reply, answers: [], additionals: [], flags: reply.flags! | dnsPacket.TRUNCATED_RESPONSE });
  }

  /** The answers the host's resolvers give for a name outside the zone (an ExternalName's target); undefined: none answered. */
  private async resolve(name: string, type: string): Promise<Answer[] | undefined> {
    const msg = dnsPacket.encode({
      type: 'query', id: randomInt(65_536), flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: type as 'A', name, class: 'IN' }],
    });
    for (const { host, port } of this.o.upstreams) {
      const reply = await relay(msg, host, port).catch(() => undefined);
      if (!reply) continue;
      try { return dnsPacket.decode(reply).answers ?? []; } catch { continue; }
    }
    return undefined;
  }

  /** The query relayed to each upstream in turn until one answers; SERVFAIL when none does. */
  private async forward(msg: Buffer, query: DecodedPacket): Promise<Buffer> {
    for (const { host, port } of this.o.upstreams) {
      const reply = await relay(msg, host, port).catch(() => undefined);
      if (reply) return reply;
    }
    return dnsPacket.encode({ type: 'response', id: query.id, flags: SERVFAIL | (query.flags! & dnsPacket.RECURSION_DESIRED), questions: query.questions });
  }
}

const relay = (msg: Buffer, host: string, port: number): Promise<Buffer> => new Promise((resolve, reject) => {
  const s = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  const timer = setTimeout(() => { s.close(); reject(new Error('timeout')); }, FORWARD_TIMEOUT_MS);
  s.on('message', (reply) => {
    if (reply.length < 2 || reply.readUInt16BE(0) !== msg.readUInt16BE(0)) return;
    clearTimeout(timer);
    s.close();
    resolve(reply);
  });
  s.on('error', (err) => { clearTimeout(timer); s.close(); reject(err); });
  s.send(msg, port, host);
});
