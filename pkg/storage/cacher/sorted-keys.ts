// The cache's keys in order: list walks them from a binary-searched start instead of sorting per call.
// Inserts are only queued and merged in at the next read (one sort of the new keys and one merge), so a burst of
// creates costs O(1) each instead of a memmove of the whole array per insert (tens of µs at 50,000 keys).
export class SortedKeys {
  private pending: string[] = [];

  /** `keys` must be sorted already (a store list is). */
  constructor(private keys: string[] = []) {}

  get length(): number {
    return this.sorted().length;
  }

  at(i: number): string {
    return this.sorted()[i];
  }

  /** Adds a key not present yet (the cache checks its objects map first). */
  insert(key: string): void {
    this.pending.push(key);
  }

  remove(key: string): void {
    const keys = this.sorted();
    const i = lowerBound(keys, key);
    if (keys[i] === key) keys.splice(i, 1);
  }

  clear(): void {
    this.keys.length = 0;
    this.pending.length = 0;
  }

  /** Index of the first key >= `key`. */
  lowerBound(key: string): number {
    return lowerBound(this.sorted(), key);
  }

  /** Index of the first key > `key`. */
  upperBound(key: string): number {
    const keys = this.sorted();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private sorted(): string[] {
    if (this.pending.length === 0) return this.keys;
    const added = this.pending.sort();
    this.pending = [];
    // One insert (the usual case between two reads) splices; more merge both sorted runs in one pass.
    if (added.length === 1) {
      const i = lowerBound(this.keys, added[0]);
      if (this.keys[i] !== added[0]) this.keys.splice(i, 0, added[0]);
      return this.keys;
    }
    const old = this.keys;
    const merged = new Array<string>(old.length + added.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < old.length || j < added.length) {
      const next = j >= added.length || (i < old.length && old[i] <= added[j]) ? old[i++] : added[j++];
      if (n === 0 || merged[n - 1] !== next) merged[n++] = next;
    }
    merged.length = n;
    this.keys = merged;
    return merged;
  }
}

function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
