import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Supervisor, unexpectedExitMessage, type ChildExit } from './supervisor.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'sup-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

/** Children are `node -e <script>`: the script is the component. */
const node = (): Supervisor => new Supervisor(process.execPath, ['-e']);

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
};
const logHas = (file: string, text: string) => async () => (await readFile(file, 'utf8').catch(() => '')).includes(text);

describe('Supervisor', () => {
  it('reports which child died unexpectedly and where its log is', async () => {
    const s = node();
    const log = join(dir, 'apiserver.log');
    s.start('apiserver', ['console.log("to stdout"); console.error("to stderr"); process.exit(3)'], log);
    await until('the failure', async () => s.failure.signal.aborted);
    const exit = s.failure.signal.reason as ChildExit;
    expect(exit).toEqual({ name: 'apiserver', code: 3, signal: null, logFile: log, logStart: 0 });
    expect(unexpectedExitMessage(exit)).toBe(`apiserver exited with code 3; see its log: ${log}`);
    const text = await readFile(log, 'utf8');
    expect(text).toContain('to stdout');
    expect(text).toContain('to stderr');
  });

  it('quotes the last error the child logged, or the error it crashed with', async () => {
    const s = node();
    const logged = join(dir, 'cm.log');
    const lines = [
      { level: 30, msg: 'starting' }, { level: 50, msg: 'first failure' }, { level: 60, msg: 'controller-manager failed', err: { message: 'no lease' } }, { level: 30, msg: 'bye' },
    ].map((l) => JSON.stringify(l)).join('\n');
    s.start('controller-manager', [`console.log(${JSON.stringify(lines)}); process.exit(1)`], logged);
    const crashed = join(dir, 'crash.log');
    s.start('scheduler', ['setTimeout(() => { throw new TypeError("x is not a function"); })'], crashed);
    await until('both exited', async () => await logHas(crashed, 'Node.js')() && await logHas(logged, 'bye')());
    const exit = (name: string, logFile: string): ChildExit => ({ name, code: 1, signal: null, logFile, logStart: 0 });
    expect(unexpectedExitMessage(exit('controller-manager', logged)))
      .toBe(`controller-manager exited with code 1; see its log: ${logged} (its last error: controller-manager failed: no lease)`);
    expect(unexpectedExitMessage(exit('scheduler', crashed))).toBe(`scheduler exited with code 1; see its log: ${crashed} (its last error: TypeError: x is not a function)`);
  });

  it('quotes only what this spawn wrote: an error an earlier run left in the same log does not count', async () => {
    const log = join(dir, 'apiserver.log');
    await writeFile(log, `${JSON.stringify({ level: 60, msg: 'apiserver failed', err: { message: 'another mini-kube is using /d' } })}\n`);
    const s = node();
    s.start('apiserver', ['console.log("quiet exit"); process.exit(1)'], log);
    await until('the failure', async () => s.failure.signal.aborted);
    const exit = s.failure.signal.reason as ChildExit;
    expect(exit.logStart).toBeGreaterThan(0);
    expect(unexpectedExitMessage(exit)).toBe(`apiserver exited with code 1; see its log: ${log}`);
  });

  it('forwards the signal, waits for every child, and does not call that a failure', async () => {
    const s = node();
    const logs = [join(dir, 'a.log'), join(dir, 'b.log')];
    const script = 'process.on("SIGTERM", () => { console.log("got SIGTERM"); process.exit(0); }); console.log("up"); setInterval(() => {}, 1000);';
    s.start('a', [script], logs[0]!);
    s.start('b', [script], logs[1]!);
    for (const l of logs) await until(`${l} up`, logHas(l, 'up'));
    await s.stop();
    for (const l of logs) expect(await readFile(l, 'utf8')).toContain('got SIGTERM');
    expect(s.failure.signal.aborted).toBe(false);
  });

  it('stops the first child last, once the others have exited', async () => {
    const s = node();
    const [first, other] = [join(dir, 'first.log'), join(dir, 'other.log')];
    const marker = join(dir, 'other-exited');
    s.start('first', [`process.on("SIGTERM", () => { console.log("other gone:", require("fs").existsSync(${JSON.stringify(marker)})); process.exit(0); }); console.log("up"); setInterval(() => {}, 1000);`], first);
    s.start('other', [`process.on("SIGTERM", () => setTimeout(() => { require("fs").writeFileSync(${JSON.stringify(marker)}, ""); process.exit(0); }, 100)); console.log("up"); setInterval(() => {}, 1000);`], other);
    for (const l of [first, other]) await until(`${l} up`, logHas(l, 'up'));
    await s.stop();
    expect(await readFile(first, 'utf8')).toContain('other gone: true');
  });

  it('kills a child that ignores the signal once the grace period is over', async () => {
    const s = node();
    const log = join(dir, 'stubborn.log');
    s.start('stubborn', ['process.on("SIGTERM", () => console.log("ignoring")); console.log("up"); setInterval(() => {}, 1000);'], log);
    await until('up', logHas(log, 'up'));
    const t0 = Date.now();
    await s.stop(300);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(await readFile(log, 'utf8')).toContain('ignoring');
    expect(s.failure.signal.aborted).toBe(false);
  });

  it('tells its children they are supervised, gives them a channel that closes when it dies, and kill() ends them at once', async () => {
    const s = node();
    const log = join(dir, 'child.log');
    s.start('child', ['process.on("SIGTERM", () => {}); console.log("supervised:", process.env.MINI_KUBE_SUPERVISED, process.connected); setInterval(() => {}, 1000);'], log);
    await until('up', logHas(log, 'supervised: 1 true'));
    s.kill();
    await s.stop(5_000);
    expect(s.failure.signal.aborted).toBe(false);
  });

  it('appends to an existing log across restarts', async () => {
    const log = join(dir, 'x.log');
    for (const word of ['first', 'second']) {
      const s = node();
      s.start('x', [`console.log("${word}")`], log);
      await until(word, logHas(log, word));
      await s.stop();
    }
    expect(await readFile(log, 'utf8')).toBe('first\nsecond\n');
  });

  it('keeps children alive once told to: each death waits a back-off that doubles, and stop() ends the waiting', async () => {
    const s = node();
    const log = join(dir, 'crashy.log');
    s.start('crashy', ['console.log("started"); process.exit(2)'], log);
    const waits: number[] = [];
    const exits: ChildExit[] = [];
    s.keepAlive({ initialMs: 20, maxMs: 80, resetAfterMs: 60_000, onRestart: (exit, ms) => { exits.push(exit); waits.push(ms); } });
    await until('six deaths', async () => waits.length >= 6);
    // as the kubelet's CrashLoopBackOff: the first restart at once, then initialMs doubling up to maxMs
    expect(waits.slice(0, 6)).toEqual([0, 20, 40, 80, 80, 80]);
    expect(exits[0]).toEqual({ name: 'crashy', code: 2, signal: null, logFile: log, logStart: 0 });
    expect(exits[1]).toEqual({ name: 'crashy', code: 2, signal: null, logFile: log, logStart: 'started\n'.length });
    expect(s.failure.signal.aborted).toBe(false);
    await s.stop();
    const started = (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;
    await delay(200);
    expect((await readFile(log, 'utf8')).split('\n').filter(Boolean).length).toBe(started);
  });

  it('quotes, at a restart, the error of the spawn that died, not one an earlier spawn logged', async () => {
    const s = node();
    const log = join(dir, 'flaky.log');
    const marker = join(dir, 'second');
    // the first spawn logs a fatal error and exits; the second exits without one
    s.start('flaky', [`const fs = require("fs"); if (fs.existsSync(${JSON.stringify(marker)})) process.exit(1); fs.writeFileSync(${JSON.stringify(marker)}, ""); console.log(JSON.stringify({ level: 60, msg: "flaky failed" })); process.exit(1)`], log);
    const messages: string[] = [];
    s.keepAlive({ initialMs: 10, maxMs: 10, resetAfterMs: 60_000, onRestart: (exit) => messages.push(unexpectedExitMessage(exit)) });
    await until('two deaths', async () => messages.length >= 2);
    await s.stop();
    expect(messages.slice(0, 2)).toEqual([
      `flaky exited with code 1; see its log: ${log} (its last error: flaky failed)`,
      `flaky exited with code 1; see its log: ${log}`,
    ]);
  });

  it('starts the back-off over once a child has run long enough', async () => {
    const s = node();
    const log = join(dir, 'slow.log');
    // each spawn prints a line; the third one runs past resetAfterMs, the others die at once
    s.start('slow', [`const runs = require("fs").readFileSync(${JSON.stringify(log)}, "utf8").length; console.log("run"); setTimeout(() => process.exit(1), runs === 8 ? 2_000 : 0)`], log);
    const waits: number[] = [];
    // far from both: a quick run's time is node's start, slow on a loaded machine
    s.keepAlive({ initialMs: 10, maxMs: 1_000, resetAfterMs: 1_500, onRestart: (_exit, ms) => waits.push(ms) });
    await until('four deaths', async () => waits.length >= 4);
    expect(waits.slice(0, 4)).toEqual([0, 10, 0, 10]);
    await s.stop();
  });
});
