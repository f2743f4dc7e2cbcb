// SIGINT/SIGTERM start one graceful shutdown; a second one exits at once with 1, as upstream's signal handler
// ("second signal. Exit directly"). A component that `mini-kube up` started (MINI_KUBE_SUPERVISED=1) leaves SIGINT
// alone: a terminal's Ctrl-C reaches the whole process group, and `up` stops its children itself with SIGTERM, the
// apiserver last, so that the others can still release their leader leases and write their last status.

/** The environment `mini-kube up` gives its children. */
export const SUPERVISED_ENV = 'MINI_KUBE_SUPERVISED';

export const onShutdownSignal = (shutdown: (signal: NodeJS.Signals) => Promise<void>, force?: () => void): void => {
  let started = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (started) {
      force?.();
      process.exit(1);
    } else {
      started = true;
      shutdown(signal).then(() => process.exit(0), (e: unknown) => {
        process.stderr.write(`shutdown failed: ${(e as Error).message}\n`);
        process.exit(1);
      });
    }
  };
  process.on('SIGINT', process.env[SUPERVISED_ENV] === '1' ? () => undefined : handler);
  process.on('SIGTERM', handler);
};
