/** A binary min-heap of vertices by key, over typed arrays (decrease-key by re-insertion). */
export class Heap {
  private keys: Float64Array;
  private items: Uint32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.items = new Uint32Array(capacity);
  }

  push(item: number, key: number) {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      const items = new Uint32Array(this.size * 2);
      items.set(this.items);
      this.keys = keys;
      this.items = items;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[i] = this.keys[parent]!;
      this.items[i] = this.items[parent]!;
      i = parent;
    }
    this.keys[i] = key;
    this.items[i] = item;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes the smallest; its item. */
  pop(): number {
    const top = this.items[0]!;
    const last = --this.size;
    const key = this.keys[last]!;
    const item = this.items[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= key) break;
      this.keys[i] = this.keys[child]!;
      this.items[i] = this.items[child]!;
      i = child;
    }
    this.keys[i] = key;
    this.items[i] = item;
    return top;
  }

  clear() {
    this.size = 0;
  }
}
