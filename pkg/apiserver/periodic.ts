// The apiserver's own controllers (the kubernetes service, system namespaces, identity lease): a pass every so often,
// never two at once, its failure logged and retried at the next tick.

/** Runs `run` every `ms` (and once at once with `now`); returns the timer, unref'd so it never holds the process. */
export function every(ms: number, run: () => Promise<void>, onError: (err: unknown) => void, o: { now?: boolean } = {}): NodeJS.Timeout {
  let running = false;
  const pass = (): void => {
    if (running) return;
    running = true;
    run().catch(onError).finally(() => { running = false; });
  };
  if (o.now) pass();
  return setInterval(pass, ms).unref();
}
