// The listening side of the proxy: one socket per address, port and protocol. TCP connections are spliced to an
// endpoint (half-closes passed through, a refused endpoint answered with a reset as iptables' REJECT would); UDP
// datagrams from one client address and port form a flow that keeps its endpoint until idle, as conntrack does.
import { createSocket, type RemoteInfo, type Socket as UdpSocket } from 'node:dgram';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Backend, Protocol } from './service-map.js';

export interface Frontend {
  close(): void;
}

/**
 * The endpoint for a new connection or flow from `source` sent to `destination` (unknown for UDP on the wildcard
 * address, whose datagrams do not say which of the host's addresses they were sent to); undefined: none.
 */
export type PickEndpoint = (source: string, destination: string | undefined) => Backend | undefined;

/** conntrack's timeout of a UDP flow that has seen replies (nf_conntrack_udp_timeout_stream is longer; 30 s is its unreplied one). */
const UDP_IDLE_MS = 30_000;

const listenTcp = (server: Server, host: string, port: number): Promise<void> => new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen({ host, port, exclusive: true }, () => { server.off('error', reject); resolve(); });
});

function tcpFrontend(host: string, port: number, pick: PickEndpoint): Promise<Frontend> {
  const open = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (client) => {
    const backend = pick(client.remoteAddress ?? '', client.localAddress);
    if (!backend) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect({ host: backend.ip, port: backend.port, allowHalfOpen: true });
    open.add(client).add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.resetAndDestroy());
    client.on('close', () => { open.delete(client); upstream.destroy(); });
    // the endpoint is done: once what it sent has been written to the client, the client's side goes too
    upstream.on('close', () => {
      open.delete(upstream);
      if (client.writableFinished) client.destroy(); else client.once('finish', () => client.destroy());
    });
  });
  return listenTcp(server, host, port).then(() => ({
    close: () => {
      server.close();
      for (const s of open) s.destroy();
    },
  }));
}

function udpFrontend(host: string, port: number, pick: PickEndpoint): Promise<Frontend> {
  const flows = new Map<string, { upstream: UdpSocket; backend: Backend; timer: NodeJS.Timeout }>();
  const socket = createSocket({ type: 'udp4', reuseAddr: false });
  const end = (key: string): void => {
    const f = flows.get(key);
    if (!f) return;
    flows.delete(key);
    clearTimeout(f.timer);
    f.upstream.close();
  };
  const touch = (key: string): void => {
    const f = flows.get(key);
    if (f) f.timer.refresh();
  };
  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    const key = `${from.address}:${from.port}`;
    let flow = flows.get(key);
    if (!flow) {
      const backend = pick(from.address, host === '0.0.0.0' ? undefined : host);
      if (!backend) return;
      const upstream = createSocket('udp4');
      upstream.on('message', (reply, src) => {
        if (src.address !== backend.ip || src.port !== backend.port) return;
        touch(key);
        socket.send(reply, from.port, from.address);
      });
      upstream.on('error', () => end(key));
      flow = { upstream, backend, timer: setTimeout(() => end(key), UDP_IDLE_MS).unref() };
      flows.set(key, flow);
    }
    touch(key);
    flow.upstream.send(msg, flow.backend.port, flow.backend.ip);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ address: host, port, exclusive: true }, () => {
      socket.off('error', reject);
      socket.on('error', () => undefined); // ICMP errors of sends to a client that went away
      resolve({
        close: () => {
          for (const key of [...flows.keys()]) end(key);
          socket.close();
        },
      });
    });
  });
}

export const openFrontend = (protocol: Protocol, host: string, port: number, pick: PickEndpoint): Promise<Frontend> =>
  (protocol === 'UDP' ? udpFrontend : tcpFrontend)(host, port, pick);
