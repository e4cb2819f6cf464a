/**
 * The request streams a session's event log forgot as delivered (`event_log.ts`), so that a late resume of
 * one is refused: the newest `limit` of them, the oldest forgotten first. A busy session fills it, so it is
 * held compactly: the SDK names request streams with random UUIDs, kept here as their 16 bytes in one typed
 * array (4 KiB for 256) where strings in a set cost ~24 KiB a session. Any other id is kept as it is, so
 * membership stays exact whatever the SDK names a stream.
 *
 * @module
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A bounded, first-in-first-out set of stream ids. */
export class DeliveredStreams {
  /** Four words per slot: the UUID of the slot, unless `#others` holds the slot's id. Made at the first add. */
  #words: Uint32Array | undefined;
  /** The slots whose id is not a lowercase UUID, and their ids. */
  readonly #others = new Map<number, string>();
  #size = 0;
  /** The slot the next id goes to: the oldest one once every slot is taken. */
  #next = 0;

  constructor(readonly limit: number) {}

  /** Ids held now. */
  get size(): number {
    return this.#size;
  }

  /** Whether `id` is one of the newest `limit` ids added. */
  has(id: string): boolean {
    const words = uuidWords(id);
    if (!words) {
      for (const other of this.#others.values()) if (other === id) return true;
      return false;
    }
    const held = this.#words;
    for (let slot = 0; held && slot < this.#size; slot++) {
      const at = slot * 4;
      if (
        held[at] === words[0] && held[at + 1] === words[1] && held[at + 2] === words[2] &&
        held[at + 3] === words[3] && !this.#others.has(slot)
      ) return true;
    }
    return false;
  }

  /** Adds `id` unless held; past the limit, the oldest id goes. */
  add(id: string): void {
    if (this.limit === 0 || this.has(id)) return;
    const slot = this.#next;
    this.#next = (slot + 1) % this.limit;
    this.#size = Math.min(this.#size + 1, this.limit);
    const words = uuidWords(id);
    if (words) {
      this.#others.delete(slot);
      (this.#words ??= new Uint32Array(this.limit * 4)).set(words, slot * 4);
    } else {
      this.#others.set(slot, id);
    }
  }
}

/** The four 32-bit words of a lowercase UUID, or undefined for any other id. */
function uuidWords(id: string): [number, number, number, number] | undefined {
  if (!UUID.test(id)) return undefined;
  return [
    parseInt(id.slice(0, 8), 16),
    parseInt(id.slice(9, 13) + id.slice(14, 18), 16),
    parseInt(id.slice(19, 23) + id.slice(24, 28), 16),
    parseInt(id.slice(28, 36), 16),
  ];
}
