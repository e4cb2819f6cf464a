/**
 * The storage's writes, counted: every transaction moves the count when it begins and again when it settles,
 * so an answer read while the count stood still is the store's answer until the count moves. The store stays
 * the truth; what is kept is only ever what it said since its last write.
 *
 * @module
 */

import type { Storage } from "./storage.ts";

/** Counts the transactions of one storage and keeps reads until the next one. */
export class StoreWrites {
  /** The storage, its transactions counted; the engine works only through it. */
  readonly storage: Storage;
  #count = 0;

  constructor(storage: Storage) {
    this.storage = {
      kind: storage.kind,
      journalMode: storage.journalMode,
      read: (work) => storage.read(work),
      close: () => storage.close(),
      transaction: (work) => {
        this.#count++;
        return storage.transaction(work).finally(() => this.#count++);
      },
    };
  }

  /**
   * `read` made into one whose answer is kept until a transaction begins or settles. Units run in turn, so a
   * call made after a transaction began reads after it; one made while it runs shares the read queued behind
   * it, and the next after it settles reads again. Callers share the kept answer and must not change it.
   */
  keep<T>(read: () => Promise<T>): () => Promise<T> {
    const kept = this.keepEach((_: void) => read(), 1);
    return () => kept();
  }

  /**
   * `read` of one key made into one whose answers are kept per key, as {@linkcode StoreWrites.keep} keeps one:
   * every kept answer goes when a transaction begins or settles. At most `limit` keys are kept, the one kept
   * longest going first; a failed read is not kept.
   */
  keepEach<K, T>(read: (key: K) => Promise<T>, limit: number): (key: K) => Promise<T> {
    const kept = new Map<K, Promise<T>>();
    let count = this.#count;
    return (key) => {
      if (count !== this.#count) {
        kept.clear();
        count = this.#count;
      }
      const known = kept.get(key);
      if (known) return known;
      const value = read(key);
      kept.set(key, value);
      if (kept.size > limit) kept.delete(kept.keys().next().value!);
      value.catch(() => {
        if (kept.get(key) === value) kept.delete(key);
      });
      return value;
    };
  }
}
