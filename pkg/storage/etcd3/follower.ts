// One etcd watch over the whole keyspace, resumed after every broken stream from the last revision it saw.
// Watching every key (not just ours) makes each revision show up as an event: the follower then knows exactly
// when it has seen everything up to a revision, which is what progress notifies and acknowledged writes need.
import type { Etcd3, IEvent, IWatchResponse } from 'etcd3';
import type { Logger } from 'pino';

export interface FollowHandlers {
  /** A response's events (whole revisions, in order): everything up to `revision` has now been seen. */
  onEvents(events: IEvent[], revision: number): void;
  /** The history after the last seen revision is compacted away up to `compactRevision`: events were missed. */
  onGap(compactRevision: number): void;
}

const ALL_KEYS = Buffer.from([0]);
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

export class Follower {
  private stream: Awaited<ReturnType<Etcd3['watchClient']['watch']>> | undefined;
  private stopped = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  /** `seen`: the revision whose events (and all before it) were already handled; the watch starts after it. */
  constructor(
    private readonly client: Etcd3,
    private seen: number,
    private readonly handlers: FollowHandlers,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.connect().catch((err: Error) => this.retry(err));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stream?.cancel();
  }

  private async connect(): Promise<void> {
    const stream = await this.client.watchClient.watch();
    if (this.stopped) return stream.cancel();
    this.stream = stream;
    let ended = false;
    const end = (err: Error): void => {
      if (ended) return;
      ended = true;
      stream.cancel();
      this.retry(err);
    };
    stream.on('data', (res: IWatchResponse) => {
      if (!ended) this.receive(res, end);
    });
    stream.on('error', (err) => end(err));
    stream.on('end', () => end(new Error('etcd closed the watch stream')));
    stream.write({
      create_request: { key: ALL_KEYS, range_end: ALL_KEYS, start_revision: this.seen + 1, prev_kv: true, progress_notify: true },
    });
  }

  private receive(res: IWatchResponse, end: (err: Error) => void): void {
    const compactRevision = Number(res.compact_revision);
    if (compactRevision > 0) {
      // Asked for revisions etcd no longer has: say so, and go on from the oldest it keeps.
      this.seen = compactRevision - 1;
      this.handlers.onGap(compactRevision);
      return end(new Error(`etcd compacted revisions before ${compactRevision}`));
    }
    if (res.canceled) return end(new Error(`etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`));
    this.retryMs = RETRY_MIN_MS;
    if (res.events.length > 0) {
      this.seen = Number(res.events[res.events.length - 1].kv.mod_revision);
      this.handlers.onEvents(res.events, this.seen);
    } else if (!res.created && Number(res.header.revision) > this.seen) {
      // A progress notify: every later event has a higher revision.
      this.seen = Number(res.header.revision);
      this.handlers.onEvents([], this.seen);
    }
  }

  private retry(err: Error): void {
    this.stream = undefined;
    if (this.stopped) return;
    if (!/compacted/.test(err.message)) this.log.warn({ err: err.message, retryInMs: this.retryMs }, 'etcd watch lost; resuming');
    this.retryTimer = setTimeout(() => this.start(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}
