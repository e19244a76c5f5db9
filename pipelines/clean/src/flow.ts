/**
 * The two flow-control pieces of a run: a bounded hand-over queue between readers and the
 * dispatcher, and the counter of batches in flight. Both exist so memory stays flat whatever
 * the input size: a producer that gets ahead waits instead of buffering.
 */

/**
 * A queue with one consumer. push() waits while `capacity` items are already queued; take()
 * waits for an item and returns undefined once the channel is closed and drained.
 */
export class Channel<T> {
  readonly #capacity: number;
  readonly #items: T[] = [];
  /** Producers waiting for room, in arrival order. */
  readonly #pushers: Array<() => void> = [];
  #taker: ((item: T | undefined) => void) | null = null;
  #closed = false;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Queues the item; the returned promise (if any) settles when the producer may go on. */
  push(item: T): Promise<void> | undefined {
    if (this.#closed) throw new Error("push to a closed channel");
    const taker = this.#taker;
    if (taker !== null) {
      this.#taker = null;
      taker(item);
      return undefined;
    }
    this.#items.push(item);
    if (this.#items.length <= this.#capacity) return undefined;
    return new Promise((resolve) => this.#pushers.push(resolve));
  }

  take(): Promise<T | undefined> {
    if (this.#items.length > 0) {
      const item = this.#items.shift() as T;
      this.#pushers.shift()?.();
      return Promise.resolve(item);
    }
    if (this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.#taker = resolve));
  }

  /** No more items will come; the consumer gets what is queued, then undefined. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const taker = this.#taker;
    this.#taker = null;
    taker?.(undefined);
  }
}

/** A counting semaphore: at most `count` holders at once, waiters served in order. */
export class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(count: number) {
    this.#free = count;
  }

  /** Takes a slot; returns a promise only when the caller has to wait for one. */
  acquire(): Promise<void> | undefined {
    if (this.#free > 0) {
      this.#free--;
      return undefined;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
