// One priority level's share of the server, as upstream's fair-queuing queueset (apiserver/pkg/util/flowcontrol/
// fairqueuing/queueset): a number of seats; a request beyond them waits in one of the level's queues, chosen by
// shuffle sharding (the flow's hash deals it a hand of handSize queues, and it joins the shortest of them, counting
// what each queue has waiting and executing), and is refused when that queue is full. Freed seats go to the queues
// in turn, one request each, which is upstream's fair queuing when requests cost alike (it orders queues by virtual
// finish time). A request waits at most the wait limit; one whose client goes away leaves its queue.

export interface QueueSetConfig {
  /** Seats: requests executing at once. */
  seats: number;
  /** 0: requests past the seats are refused at once (limitResponse Reject). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

export type Rejection = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

interface Waiter {
  queue: Queue;
  dispatch(): void;
  timer: NodeJS.Timeout;
}

interface Queue { index: number; waiting: Waiter[]; executing: number }

export interface Ticket {
  /** Frees the seat (idempotent). */
  release(): void;
}

export interface QueueSetStats {
  waiting: number;
  executing: number;
  activeQueues: number;
  dispatched: number;
  rejected: number;
  timedOut: number;
  cancelled: number;
}

/** FNV-1a, 32 bits twice (the flow's two halves of a 64-bit hash would need BigInt): enough to spread flows. */
export function flowHash(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** upstream's shuffle-sharding dealer: handSize distinct queues out of `deck`, a pure function of the hash. */
export function dealHand(hash: number, deck: number, handSize: number): number[] {
  const hand: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize && i < deck; i++) {
    let card = h % (deck - i);
    h = Math.floor(h / (deck - i));
    // the card-th queue not dealt yet
    for (const dealt of [...hand].sort((x, y) => x - y)) if (dealt <= card) card++;
    hand.push(card);
  }
  return hand;
}

export class QueueSet {
  private queues: Queue[] = [];
  private executing = 0;
  private waitingCount = 0;
  private next = 0;
  readonly stats = { dispatched: 0, rejected: 0, timedOut: 0, cancelled: 0 };

  constructor(private config: QueueSetConfig, private readonly waitLimitMs: number) {
    this.setConfig(config);
  }

  /** A new configuration keeps what executes and waits (in the queue of the same number, or dispatched when none is left). */
  setConfig(config: QueueSetConfig): void {
    const old = this.queues;
    this.config = config;
    this.queues = Array.from({ length: config.queues }, (_, index) => ({ index, waiting: [], executing: 0 }));
    this.next = 0;
    const orphans: Waiter[] = [];
    for (const q of old) {
      const into = this.queues[q.index % Math.max(1, config.queues)];
      for (const w of q.waiting) {
        if (into) { w.queue = into; into.waiting.push(w); } else orphans.push(w);
      }
    }
    // requests executing keep their seats; their queues' counts start again from what comes next
    this.waitingCount -= orphans.length;
    for (const w of orphans) w.dispatch();
    this.dispatchWaiting();
  }

  get seats(): number { return this.config.seats; }

  snapshot(): QueueSetStats {
    return { waiting: this.waitingCount, executing: this.executing, activeQueues: this.queues.filter((q) => q.waiting.length || q.executing).length, ...this.stats };
  }

  /** A seat now, when one is free and nobody waits for it; undefined otherwise. */
  tryAcquire(): Ticket | undefined {
    if (this.waitingCount > 0 || this.executing >= this.config.seats) return undefined;
    return this.start(undefined);
  }

  /**
   * A seat once the request's turn comes, or the reason it has none. `onGone` registers what to do when the client
   * leaves while the request waits (and returns its unregistration).
   */
  acquire(flow: string, onGone: (leave: () => void) => () => void): Promise<Ticket | Rejection> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    if (this.config.queues === 0) { this.stats.rejected++; return Promise.resolve('concurrency-limit'); }
    const hand = dealHand(flowHash(flow), this.config.queues, Math.min(this.config.handSize, this.config.queues));
    let queue = this.queues[hand[0]!]!;
    for (const i of hand) {
      const q = this.queues[i]!;
      if (q.waiting.length + q.executing < queue.waiting.length + queue.executing) queue = q;
    }
    if (queue.waiting.length >= this.config.queueLengthLimit) { this.stats.rejected++; return Promise.resolve('queue-full'); }
    return new Promise<Ticket | Rejection>((resolve) => {
      let unregister = (): void => {};
      const leave = (why: Rejection): void => {
        const i = waiter.queue.waiting.indexOf(waiter);
        if (i >= 0) { waiter.queue.waiting.splice(i, 1); this.waitingCount--; }
        unregister();
        resolve(why);
      };
      const waiter: Waiter = {
        queue,
        dispatch: () => { clearTimeout(waiter.timer); unregister(); resolve(this.start(waiter.queue)); },
        timer: setTimeout(() => { this.stats.timedOut++; this.stats.rejected++; leave('time-out'); }, this.waitLimitMs),
      };
      queue.waiting.push(waiter);
      this.waitingCount++;
      unregister = onGone(() => { this.stats.cancelled++; clearTimeout(waiter.timer); leave('cancelled'); });
    });
  }

  private start(queue: Queue | undefined): Ticket {
    this.executing++;
    this.stats.dispatched++;
    if (queue) queue.executing++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.executing--;
        if (queue) queue.executing = Math.max(0, queue.executing - 1);
        this.dispatchWaiting();
      },
    };
  }

  /** Fills free seats from the queues in turn, one request each. */
  private dispatchWaiting(): void {
    const n = this.queues.length;
    while (this.executing < this.config.seats && n > 0) {
      let found = false;
      for (let k = 0; k < n && this.executing < this.config.seats; k++) {
        const q = this.queues[(this.next + k) % n]!;
        const w = q.waiting.shift();
        if (!w) continue;
        this.waitingCount--;
        found = true;
        this.next = (q.index + 1) % n;
        w.dispatch();
      }
      if (!found) return;
    }
  }
}
