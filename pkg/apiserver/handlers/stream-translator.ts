// exec and attach over WebSocket v5.channel.k8s.io, as upstream's apiserver serves them with the
// TranslateStreamCloseWebsocketRequests gate (beta, on since 1.30): pods/exec and pods/attach wrap their proxy in
// a TranslatingHandler that takes any WebSocket request offering v5.channel.k8s.io (v4 and older are proxied as
// they are) to its StreamTranslatorHandler (k8s.io/apiserver pkg/util/proxy). That handler completes the client's
// WebSocket itself, speaking v5 only, sends the streams-ready message, and only then runs the session against the
// kubelet as a client (upstream over SPDY, with client-go's remotecommand executor; here over the kubelet's own
// v5 channels). How that session ended comes back as a Status on the error channel, never as an HTTP error:
//  - a kubelet that refuses the upgrade: "Internal error occurred: unable to upgrade connection: <its answer>";
//  - a kubelet out of reach: "Internal error occurred: error sending request: Post \"<url>\": <Go's dial error>";
//  - the kubelet's own Status, read as client-go's v4 error decoder reads it: an exit code becomes
//    "command terminated with non-zero exit code: command terminated with exit code N" (with its ExitCode cause),
//    any other failure an internal error around its message, and Success stays Success.
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { WebSocket } from 'ws';
import { goHttpsTransportError } from '../../apimachinery/go-net-errors.js';
import { acceptWebSocket, isWebSocketRequest, offeredProtocols, WsChannels } from '../../apimachinery/httpstream/wsstream.js';
import { exitCodeStatus, internalErrorStatus, successStatus, type StreamStatus } from '../../apimachinery/remotecommand.js';
import { upgradeHead } from '../upgrade.js';

const V5 = 'v5.channel.k8s.io';
const STDIN = 0;
const ERROR = 3;
const RESIZE = 4;
const CLOSE = 255;
/** Kubelet messages on their way to the client past which the kubelet's socket is paused. */
const HIGH_WATER = 16;

/** wsstream.IsWebSocketRequestWithStreamCloseProtocol: the requests the TranslatingHandler translates. */
export const offersStreamClose = (req: IncomingMessage): boolean => isWebSocketRequest(req) && offeredProtocols(req).includes(V5);

/** The streams the exec or attach options ask for. */
export interface TranslatedStreams { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean }

/** The kubelet's exec or attach URL, and how to dial it. */
export interface KubeletStream {
  url: string;
  host: string;
  port: number;
  servername?: string;
  tls: { cert?: string; key?: string; ca?: string; rejectUnauthorized: boolean };
}

/**
 * What the translator reports for the kubelet's error channel: client-go's errorDecoderV4 on its text (nothing
 * read is success), then the Status StreamTranslatorHandler writes for the executor's result.
 */
export function translatedStatus(text: string): StreamStatus {
  if (!text) return successStatus();
  let s: Partial<StreamStatus> | undefined;
  try {
    s = JSON.parse(text) as Partial<StreamStatus>;
  } catch (err) {
    return internalErrorStatus(`error stream protocol error: ${(err as Error).message} in ${JSON.stringify(text)}`);
  }
  if (s?.status === 'Success') return successStatus();
  if (s?.status !== 'Failure') return internalErrorStatus('error stream protocol error: unknown error');
  if (s.reason !== 'NonZeroExitCode') return internalErrorStatus(s.message ?? '');
  if (!s.details) return internalErrorStatus('error stream protocol error: details must be set');
  const cause = s.details.causes?.find((c) => c.reason === 'ExitCode');
  if (!cause) return internalErrorStatus('error stream protocol error: no ExitCode cause given');
  // strconv.ParseUint(message, 10, 8)
  if (!/^\d+$/.test(cause.message) || Number(cause.message) > 255) return internalErrorStatus(`error stream protocol error: invalid exit code value ${JSON.stringify(cause.message)}`);
  const code = Number(cause.message);
  return exitCodeStatus(`command terminated with exit code ${code}`, code);
}

/** A writable sending each chunk to the kubelet on channel n (dropped once the kubelet's socket is gone). */
const toKubelet = (k: WebSocket, n: number, onEnd?: () => void): Writable => new Writable({
  write: (chunk: Buffer, _enc, cb) => {
    if (k.readyState !== WebSocket.OPEN) { cb(); return; }
    k.send(Buffer.concat([Buffer.from([n]), chunk]), () => cb());
  },
  final: (cb) => { onEnd?.(); cb(); },
});

/** Serves an exec or attach request that offers v5 (the reply already hijacked), translating it to the kubelet. */
export async function translateStream(raw: IncomingMessage, o: TranslatedStreams, kubelet: KubeletStream): Promise<void> {
  const ws = await acceptWebSocket(raw, raw.socket, upgradeHead(raw) ?? Buffer.alloc(0), [V5]);
  if (!ws) return;
  const client = new WsChannels(ws, false);
  // as upstream: an empty message on the lowest writable channel says the streams are set up
  client.send(o.stdout ? 1 : o.stderr ? 2 : ERROR, Buffer.alloc(0));

  let done = false;
  const finish = (status: StreamStatus): void => {
    if (done) return;
    done = true;
    client.send(ERROR, Buffer.from(JSON.stringify(status)));
    client.close();
  };
  // ws names the server as dialTls does: by the host, unless it is an address
  const k = new WebSocket(kubelet.url, [V5], { ...kubelet.tls, perMessageDeflate: false, followRedirects: false });
  client.onClose(() => { done = true; k.terminate(); });
  let opened = false;
  let answered = false;
  let errorText = '';
  k.on('unexpected-response', (req, res) => {
    answered = true;
    const body: Buffer[] = [];
    res.on('data', (d: Buffer) => body.push(d));
    res.on('end', () => {
      // spdy's NewConnection: the answer of a backend that did not upgrade, trimmed
      finish(internalErrorStatus(`unable to upgrade connection: ${Buffer.concat(body).toString().trim()}`));
      req.destroy();
    });
  });
  k.on('error', (err: NodeJS.ErrnoException) => {
    if (opened || answered) return;
    // spdy.Negotiate: client.Do's *url.Error
    finish(internalErrorStatus(`error sending request: Post "${kubelet.url}": ${goHttpsTransportError(err, kubelet.host, kubelet.port, kubelet.servername)}`));
  });
  k.on('open', () => {
    opened = true;
    // v5: the end of the client's stdin is a close message for channel 0
    if (o.stdin) client.input(STDIN).pipe(toKubelet(k, STDIN, () => { if (k.readyState === WebSocket.OPEN) k.send(Buffer.from([CLOSE, STDIN])); }));
    if (o.tty) client.input(RESIZE).pipe(toKubelet(k, RESIZE));
  });
  let inFlight = 0;
  k.on('message', (data: Buffer) => {
    const n = data[0];
    const payload = data.subarray(1);
    if (n === ERROR) { errorText += payload.toString(); return; }
    // the kubelet's own streams-ready message was the client's already
    if ((n !== 1 && n !== 2) || !payload.length) return;
    if (++inFlight >= HIGH_WATER) k.pause();
    client.send(n, payload, () => { if (--inFlight < HIGH_WATER && k.isPaused) k.resume(); });
  });
  k.on('close', () => { if (opened) finish(translatedStatus(errorText)); });
}
