// The status conditions of a terminating namespace, worded as upstream's (namespace/deletion/status_condition_utils.go):
// each of the five types is always present, False with an "all good" reason or True with what went wrong.
import { formatTime } from '../../client/index.js';

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

const OK: Record<string, [reason: string, message: string]> = {
  NamespaceDeletionDiscoveryFailure: ['ResourcesDiscovered', 'All resources successfully discovered'],
  NamespaceDeletionGroupVersionParsingFailure: ['ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  NamespaceDeletionContentFailure: ['ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  NamespaceContentRemaining: ['ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: ['ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
};

export class ConditionUpdater {
  private readonly next = new Map<string, NamespaceCondition>();

  constructor(private readonly current: NamespaceCondition[] = [], private readonly now = (): string => formatTime(Date.now())) {
    for (const type of Object.keys(OK)) this.set(type, 'False', ...OK[type]!);
  }

  private set(type: string, status: 'True' | 'False', reason: string, message: string): void {
    this.next.set(type, { type, status, reason, message });
  }

  discovery(failures: string[]): void {
    if (failures.length) {
      this.set('NamespaceDeletionDiscoveryFailure', 'True', 'DiscoveryFailed',
        `Discovery failed for some groups, ${failures.length} failing: unable to retrieve the complete list of server APIs: ${failures.join(', ')}`);
    }
  }

  contentErrors(errors: string[]): void {
    if (errors.length) {
      this.set('NamespaceDeletionContentFailure', 'True', 'ContentDeletionFailed',
        `Failed to delete all resource types, ${errors.length} remaining: ${errors.join(', ')}`);
    }
  }

  contentTotals(remaining: Map<string, { count: number; finalizers: Map<string, number> }>): void {
    const resources = [...remaining].map(([gr, r]) => `${gr} has ${r.count} resource instances`).sort();
    if (resources.length) this.set('NamespaceContentRemaining', 'True', 'SomeResourcesRemain', `Some resources are remaining: ${resources.join(', ')}`);
    const finalizers = new Map<string, number>();
    for (const r of remaining.values()) for (const [f, n] of r.finalizers) finalizers.set(f, (finalizers.get(f) ?? 0) + n);
    const texts = [...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
    if (texts.length) {
      this.set('NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${texts.join(', ')}`);
    }
  }

  /** The conditions to write: unchanged ones keep their lastTransitionTime, others not of ours are kept. */
  get conditions(): NamespaceCondition[] {
    const out: NamespaceCondition[] = this.current.filter((c) => !this.next.has(c.type));
    for (const c of this.next.values()) {
      const old = this.current.find((o) => o.type === c.type);
      const same = old && old.status === c.status && old.reason === c.reason && old.message === c.message;
      out.push(same ? old : { ...c, lastTransitionTime: this.now() });
    }
    return out;
  }

  get changed(): boolean {
    return [...this.next.values()].some((c) => {
      const old = this.current.find((o) => o.type === c.type);
      return !old || old.status !== c.status || old.reason !== c.reason || old.message !== c.message;
    });
  }
}
