/**
 * A FIFO with a fixed capacity that drops its oldest entries when full, so a
 * filter nobody polls holds at most `capacity` changes however busy the chain.
 */
export class BoundedQueue<T> {
  private items: T[] = [];
  private head = 0;
  /** Entries dropped because the queue was full, since the last drain. */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
    if (this.size > this.capacity) {
      this.head++;
      this.dropped++;
      // Compact once the dead prefix is as long as the live part: amortised O(1) per push.
      if (this.head >= this.capacity) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
    }
  }

  /** The oldest `max` entries (fewer if fewer are queued), removed; `dropped` is kept. */
  take(max: number): T[] {
    const end = Math.min(this.items.length, this.head + max);
    const out = this.items.slice(this.head, end);
    this.head = end;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return out;
  }

  /** Everything queued, oldest first; the queue is empty afterwards. */
  drain(): T[] {
    const out = this.head === 0 ? this.items : this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    this.dropped = 0;
    return out;
  }
}
