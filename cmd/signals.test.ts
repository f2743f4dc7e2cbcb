import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitWithParent, onShutdownSignal, STOP_GRACE_MS, SUPERVISED_ENV } from './signals.js';

/** The handlers onShutdownSignal installs, and the exits it asks for, without touching this process. */
const install = (force?: () => void, clock = { t: 0 }) => {
  const handlers = new Map<string, (s: NodeJS.Signals) => void>();
  vi.spyOn(process, 'on').mockImplementation(((event: string, h: (s: NodeJS.Signals) => void) => { handlers.set(event, h); return process; }) as typeof process.on);
  const exits: (number | undefined)[] = [];
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => { exits.push(code); }) as typeof process.exit);
  const shutdowns: NodeJS.Signals[] = [];
  let finish!: () => void;
  onShutdownSignal((s) => { shutdowns.push(s); return new Promise<void>((r) => { finish = r; }); }, force, () => clock.t);
  return { send: (s: NodeJS.Signals) => handlers.get(s)!(s), exits, shutdowns, finish: () => finish() };
};

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env[SUPERVISED_ENV];
});

describe('onShutdownSignal', () => {
  it('starts one graceful shutdown and exits 0 when it is done', async () => {
    const p = install();
    p.send('SIGTERM');
    expect(p.shutdowns).toEqual(['SIGTERM']);
    expect(p.exits).toEqual([]);
    p.finish();
    await vi.waitFor(() => expect(p.exits).toEqual([0]));
  });

  it('exits 1 at once on a second signal, as upstream ("second signal. Exit directly"), after forcing', () => {
    const force = vi.fn();
    const clock = { t: 0 };
    const p = install(force, clock);
    p.send('SIGINT');
    // the same Ctrl-C again: from the terminal to the process group and forwarded by `npm start`
    clock.t = 50;
    p.send('SIGINT');
    expect([p.shutdowns, force.mock.calls.length, p.exits]).toEqual([['SIGINT'], 0, []]);
    clock.t = 2_000;
    p.send('SIGINT');
    expect(p.shutdowns).toEqual(['SIGINT']);
    expect(force).toHaveBeenCalledOnce();
    expect(p.exits).toEqual([1]);
  });

  it('under mini-kube up, leaves SIGINT (a Ctrl-C to the whole group) to the supervisor, which sends SIGTERM', () => {
    process.env[SUPERVISED_ENV] = '1';
    const p = install();
    p.send('SIGINT');
    p.send('SIGINT');
    expect(p.shutdowns).toEqual([]);
    p.send('SIGTERM');
    expect(p.shutdowns).toEqual(['SIGTERM']);
    expect(p.exits).toEqual([]);
  });
});

describe('exitWithParent', () => {
  /** What exitWithParent listens to and does, without touching this process (a vitest fork: it has a channel). */
  const watch = () => {
    const listeners = new Map<string, () => void>();
    vi.spyOn(process, 'once').mockImplementation(((event: string, h: () => void) => { listeners.set(event, h); return process; }) as typeof process.once);
    const unref = vi.spyOn(process.channel!, 'unref').mockImplementation(() => undefined);
    const kills: [number, string | number | undefined][] = [];
    vi.spyOn(process, 'kill').mockImplementation(((pid: number, signal?: string | number) => { kills.push([pid, signal]); return true; }) as typeof process.kill);
    const exits: (number | undefined)[] = [];
    vi.spyOn(process, 'exit').mockImplementation(((code?: number) => { exits.push(code); }) as typeof process.exit);
    exitWithParent();
    return { listeners, unref, kills, exits };
  };

  it('under mini-kube up, takes the close of up\'s channel (up died, even by SIGKILL) as its SIGTERM, and ends a stop that outlasts the grace', () => {
    vi.useFakeTimers();
    try {
      process.env[SUPERVISED_ENV] = '1';
      const w = watch();
      expect([...w.listeners.keys()]).toEqual(['disconnect']);
      expect(w.unref).toHaveBeenCalledOnce(); // the channel does not keep the process alive
      w.listeners.get('disconnect')!();
      expect(w.kills).toEqual([[process.pid, 'SIGTERM']]);
      vi.advanceTimersByTime(STOP_GRACE_MS - 1);
      expect(w.exits).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(w.exits).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves a process that up did not start alone (a container shim inherits the env but has no channel)', () => {
    const w = watch();
    expect(w.listeners.size).toBe(0);
    expect(w.unref).not.toHaveBeenCalled();
  });
});
