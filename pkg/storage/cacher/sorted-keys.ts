// A sorted array of keys: list walks it in order from a binary-searched start instead of sorting per call.
// Inserts and removals shift the array (a memmove); at 10,000s of keys that costs microseconds.
export class SortedKeys {
  /** `keys` must be sorted already (a store list is). */
  constructor(private readonly keys: string[] = []) {}

  get length(): number {
    return this.keys.length;
  }

  at(i: number): string {
    return this.keys[i];
  }

  insert(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  clear(): void {
    this.keys.length = 0;
  }

  /** Index of the first key >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first key > `key`. */
  upperBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
