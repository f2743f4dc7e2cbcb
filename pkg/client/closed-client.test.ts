// A closed client: requests fail at once with ClientClosedError and send nothing, and the event recorders (core and
// events.k8s.io) drop what is still queued instead of retrying every 10 s and warning about each event.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources } from './client.js';
import type { Clock } from './clock.js';
import { isClientClosed } from './errors.js';
import { EventRecorder } from './events.js';
import { EventBroadcaster } from './events-v1.js';

let server: Server;
let url: string;
let requests = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => { res.writeHead(201, { 'content-type': 'application/json' }); res.end('{}'); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A clock whose sleeps are recorded and return at once. */
const recordingClock = (sleeps: number[]): Clock => ({
  now: () => Date.now(),
  setTimer: (fn) => { const t = setTimeout(fn, 0); return { cancel: () => clearTimeout(t) }; },
  sleep: async (ms) => { sleeps.push(ms); },
});

/** A logger whose warnings and errors are kept. */
const capturingLogger = (lines: string[]) => pino({ level: 'debug' }, { write: (line: string) => { const o = JSON.parse(line) as { level: number; msg: string }; if (o.level >= 40) lines.push(o.msg); } });

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' } };

describe('a closed client', () => {
  it('fails a request at once, sending nothing', async () => {
    const c = new Client({ host: url, qps: 0 });
    await c.pods('default').get('x').catch(() => undefined);
    const before = requests;
    await c.close();
    const err = await c.pods('default').get('x').then(() => undefined, (e: unknown) => e);
    expect(isClientClosed(err)).toBe(true);
    expect((err as Error).message).toBe('the client is closed');
    expect(requests).toBe(before);
  });

  it('makes the core and the events.k8s.io recorders drop queued events without retries or warnings', async () => {
    const c = new Client({ host: url, qps: 0 });
    const sleeps: number[] = [];
    const logged: string[] = [];
    const clock = recordingClock(sleeps);
    const logger = capturingLogger(logged);
    const core = new EventRecorder({ sink: c.events(), component: 'kubelet', host: 'n1', clock, logger });
    const broadcaster = new EventBroadcaster({ sink: c.resource(Resources.eventsV1), clock, logger, hostname: 'h1' });
    const v1 = broadcaster.newRecorder('default-scheduler');
    core.event(pod, 'Normal', 'Pulled', 'written');
    await core.flush();
    expect(requests).toBeGreaterThan(0);
    await c.close();
    const before = requests;
    for (let i = 0; i < 3; i++) {
      core.event(pod, 'Normal', 'Started', `after close ${i}`);
      v1.eventf({ ...pod, metadata: { ...pod.metadata, uid: `u${i}` } }, undefined, 'Normal', 'Scheduled', 'Binding', `after close ${i}`);
    }
    await Promise.all([core.flush(), broadcaster.flush()]);
    expect(requests).toBe(before);
    expect(sleeps).toEqual([]);
    expect(logged).toEqual([]);
  });
});
