// SIGINT/SIGTERM start one graceful shutdown; a later one exits at once with 1, as upstream's signal handler
// ("second signal. Exit directly"). One Ctrl-C can arrive twice within moments (the terminal signals the whole
// process group and `npm start` forwards what it gets to its child): a repeat within a second is that same one.
// A component that `mini-kube up` started (MINI_KUBE_SUPERVISED=1) leaves SIGINT alone: `up` stops its children
// itself with SIGTERM, the apiserver last, so that the others can still release their leader leases and write their
// last status. Started with an IPC channel from `up`, a component also stops when `up` dies, even by SIGKILL.

/** The environment `mini-kube up` gives its children. */
export const SUPERVISED_ENV = 'MINI_KUBE_SUPERVISED';

/** How long `up` waits for its children to stop before it kills them; a child whose `up` died waits as long. */
export const STOP_GRACE_MS = 15_000;

/** How long a repeated signal counts as the first one delivered again. */
const REPEAT_MS = 1000;

export const onShutdownSignal = (shutdown: (signal: NodeJS.Signals) => Promise<void>, force?: () => void, now = Date.now): void => {
  let startedAt: number | undefined;
  const handler = (signal: NodeJS.Signals): void => {
    if (startedAt !== undefined) {
      if (now() - startedAt < REPEAT_MS) return;
      force?.();
      process.exit(1);
    } else {
      startedAt = now();
      shutdown(signal).then(() => process.exit(0), (e: unknown) => {
        process.stderr.write(`shutdown failed: ${(e as Error).message}\n`);
        process.exit(1);
      });
    }
  };
  process.on('SIGINT', process.env[SUPERVISED_ENV] === '1' ? () => undefined : handler);
  process.on('SIGTERM', handler);
};

/**
 * Under `mini-kube up`, up's death stops this process: the OS closes up's end of the IPC channel up gave it, and that
 * close counts as up's SIGTERM (the graceful stop; a process yet to install its handler just ends), with up's grace
 * to finish. Called at start, before any handler. Container shims inherit the kubelet's environment but no channel:
 * a kubelet that dies leaves them for the next one to adopt; one that stops stops them only when told to
 * (--stop-containers-on-exit, as up's kubelet is: its cluster goes away).
 */
export const exitWithParent = (): void => {
  if (process.env[SUPERVISED_ENV] !== '1' || !process.channel) return;
  process.once('disconnect', () => {
    process.kill(process.pid, 'SIGTERM');
    setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
  });
  process.channel.unref(); // listening does not keep the process alive
};
