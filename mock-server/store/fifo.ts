// A first-in, first-out queue with O(1) push, peek and shift: an array read from a moving head,
// compacted once the taken part outweighs the rest (Array.shift moves every element, and a Map
// iterated from its front walks every deleted entry before the first live one).
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined as T; // let it be collected
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

/**
 * A Fifo per owner (a client's quotes, a site's AML checks): each owner's items in the order they
 * came, so a bound per owner forgets that owner's own oldest and never another's.
 */
export class FifosByOwner<Owner, T> {
  private readonly byOwner = new Map<Owner, Fifo<T>>();

  /** Appends `item` to its owner's queue and returns the owner's oldest items beyond `max`, taken off it. */
  push(owner: Owner, item: T, max: number): T[] {
    let mine = this.byOwner.get(owner);
    if (mine === undefined) {
      mine = new Fifo();
      this.byOwner.set(owner, mine);
    }
    mine.push(item);
    const overflow: T[] = [];
    while (mine.size > max) overflow.push(mine.shift()!);
    return overflow;
  }

  /** Takes the owner's oldest items while `due` holds for them, oldest first; an emptied owner is dropped. */
  shiftWhile(owner: Owner, due: (item: T) => boolean): T[] {
    const mine = this.byOwner.get(owner);
    if (mine === undefined) return [];
    const taken: T[] = [];
    for (let oldest = mine.peek(); oldest !== undefined && due(oldest); oldest = mine.peek()) taken.push(mine.shift()!);
    if (mine.size === 0) this.byOwner.delete(owner);
    return taken;
  }

  owners(): Owner[] {
    return [...this.byOwner.keys()];
  }

  clear(): void {
    this.byOwner.clear();
  }
}
