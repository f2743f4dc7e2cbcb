// The pod lifecycle event generator: turns runtime changes into "look at this pod again" for the pod workers.
// Runtime notifications arrive at once; a periodic relist (upstream's generic PLEG, every second) compares
// container states with the last relist and catches whatever a notification missed (on a runtime that counts its
// changes, only when there were any). As upstream's status comes from what a relist saw, a container counts as
// running once a relist has seen it run: one that exits at once (a bad command) is never reported running.
import type { Clock, TimerHandle } from '../client/index.js';
import type { Runtime } from './runtime/types.js';

export class Pleg {
  private last = new Map<string, string>();
  private lastChangeCount?: number;
  private timer?: TimerHandle;
  private unsubscribe?: () => void;

  constructor(private readonly runtime: Runtime, private readonly clock: Clock, private readonly onPod: (uid: string) => void,
    private readonly relistMs = 1000) {}

  start(): void {
    // containers that ran before a kubelet restart are seen at once
    this.relist();
    this.unsubscribe = this.runtime.subscribe((ev) => this.onPod(ev.podUid));
    const tick = (): void => { this.relist(); this.timer = this.clock.setTimer(tick, this.relistMs); };
    this.timer = this.clock.setTimer(tick, this.relistMs);
  }

  stop(): void {
    this.unsubscribe?.();
    this.timer?.cancel();
  }

  /** The last relist saw this container running. */
  seenRunning(podUid: string, containerId: string): boolean { return this.last.get(`${podUid}/${containerId}`) === 'running'; }

  /** Compares every container's state with the previous relist; pods with a change are reported. */
  relist(): void {
    const count = this.runtime.changeCount?.();
    if (count !== undefined && count === this.lastChangeCount) return;
    this.lastChangeCount = count;
    const now = new Map<string, string>();
    for (const c of this.runtime.listContainers()) now.set(`${c.podUid}/${c.id}`, c.state);
    for (const s of this.runtime.listPodSandboxes()) now.set(`${s.config.uid}/${s.id}`, s.state);
    const changed = new Set<string>();
    for (const [k, v] of now) if (this.last.get(k) !== v) changed.add(k.slice(0, k.indexOf('/')));
    for (const k of this.last.keys()) if (!now.has(k)) changed.add(k.slice(0, k.indexOf('/')));
    this.last = now;
    for (const uid of changed) this.onPod(uid);
  }
}
