// SIGINT/SIGTERM start one graceful shutdown; repeats (a terminal's Ctrl-C reaches the whole process group) are ignored.

export const onShutdownSignal = (shutdown: (signal: NodeJS.Signals) => Promise<void>): void => {
  let started = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (started) return;
    started = true;
    shutdown(signal).then(() => process.exit(0), (e: unknown) => {
      process.stderr.write(`shutdown failed: ${(e as Error).message}\n`);
      process.exit(1);
    });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
};
