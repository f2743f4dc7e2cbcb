// How WebSocket frames reach a client in TLS records: a Node TLS socket emits one 'data' per SSL_read, which
// returns one record's plaintext (records here being under 16 KiB), so the frames parsed from each 'data' are the
// frames of one record.
import { connect, type ConnectionOptions } from 'node:tls';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';

/** A CA and a serving pair for 127.0.0.1 it signed. */
export async function localTls(): Promise<{ ca: string; cert: string; key: string }> {
  const ca = await createCa('records-ca', 1);
  const leaf = await issueCertificate(ca, { subject: { commonName: '127.0.0.1' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
  return { ca: ca.cert.toString('pem'), cert: leaf.certPem, key: leaf.keyPem };
}

/** A frame as `<channel>:<payload>` (binary channel messages) or `close`. */
const describeFrame = (opcode: number, payload: Buffer): string => (opcode === 8 ? 'close' : `${payload[0]}:${payload.subarray(1).toString()}`);

/**
 * Opens a WebSocket at `path` offering `protocol` and collects the server's frames (unmasked) until its close
 * frame: one list per TLS record after the one that ends the 101's headers (a frame cut by a record boundary
 * counts in the record that completes it).
 */
export function wsFramesByRecord(o: ConnectionOptions, path: string, protocol: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const s = connect({ ...o, ALPNProtocols: ['http/1.1'] }, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${o.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n`
        + `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`);
    });
    const records: string[][] = [];
    let pending = Buffer.alloc(0);
    let upgraded = false;
    s.on('data', (d: Buffer) => {
      pending = Buffer.concat([pending, d]);
      if (!upgraded) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString();
        if (!head.startsWith('HTTP/1.1 101')) { s.destroy(); reject(new Error(head)); return; }
        upgraded = true;
        pending = pending.subarray(end + 4);
        if (!pending.length) return;
      }
      const frames: string[] = [];
      for (;;) {
        if (pending.length < 2) break;
        let len = pending[1]! & 0x7f;
        let at = 2;
        if (len === 126) { if (pending.length < 4) break; len = pending.readUInt16BE(2); at = 4; }
        else if (len === 127) { if (pending.length < 10) break; len = Number(pending.readBigUInt64BE(2)); at = 10; }
        if (pending.length < at + len) break;
        frames.push(describeFrame(pending[0]! & 0x0f, pending.subarray(at, at + len)));
        pending = pending.subarray(at + len);
      }
      records.push(frames);
      if (frames.includes('close')) { s.destroy(); resolve(records); }
    });
    s.on('error', reject);
    s.on('close', () => reject(new Error(`closed before a close frame, after ${JSON.stringify(records)}`)));
  });
}
