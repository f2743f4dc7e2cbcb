// A request's deadline, as upstream's request context carries one: when it ends, whether it has passed, and a signal
// for what must stop with it (a webhook call). The signal is made only when asked for: most requests end in time.
import { timeout } from './errors.js';

const exceeded = (): Error => timeout('request did not complete within requested timeout - context deadline exceeded');

export class Deadline {
  #expired = false;
  #controller?: AbortController;

  /** `at`: the deadline, in epoch milliseconds. */
  constructor(readonly at: number) {}

  get expired(): boolean {
    return this.#expired;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#expired) this.#controller.abort(exceeded());
    }
    return this.#controller.signal;
  }

  expire(): void {
    this.#expired = true;
    this.#controller?.abort(exceeded());
  }

  /** Throws once the deadline has passed: a write is not stored after its client was told that it timed out. */
  check(): void {
    if (this.#expired) throw exceeded();
  }
}
