// A binary heap keyed by string, with update and delete by key (upstream's backend/heap).
export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly keyOf: (t: T) => string, private readonly less: (a: T, b: T) => boolean) {}

  get size(): number { return this.items.length; }
  has(key: string): boolean { return this.index.has(key); }
  get(key: string): T | undefined { const i = this.index.get(key); return i === undefined ? undefined : this.items[i]; }
  peek(): T | undefined { return this.items[0]; }
  list(): T[] { return [...this.items]; }

  /** Adds or replaces (by key). */
  addOrUpdate(t: T): void {
    const key = this.keyOf(t);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = t;
      this.fix(i);
      return;
    }
    this.items.push(t);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const t = this.items[i]!;
    this.swap(i, this.items.length - 1);
    this.items.pop();
    this.index.delete(key);
    if (i < this.items.length) this.fix(i);
    return t;
  }

  pop(): T | undefined {
    const t = this.items[0];
    if (t !== undefined) this.delete(this.keyOf(t));
    return t;
  }

  private fix(i: number): void { if (!this.up(i)) this.down(i); }

  private up(i: number): boolean {
    let moved = false;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[p]!)) break;
      this.swap(i, p);
      i = p;
      moved = true;
    }
    return moved;
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      let m = l;
      if (l + 1 < n && this.less(this.items[l + 1]!, this.items[l]!)) m = l + 1;
      if (!this.less(this.items[m]!, this.items[i]!)) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    if (a === b) return;
    const ta = this.items[a]!;
    const tb = this.items[b]!;
    this.items[a] = tb;
    this.items[b] = ta;
    this.index.set(this.keyOf(tb), a);
    this.index.set(this.keyOf(ta), b);
  }
}
