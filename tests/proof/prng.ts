/**
 * A seeded pseudo-random generator (mulberry32), so every suite is reproducible from its printed seed.
 *
 * @module
 */

/** A small deterministic PRNG with the helpers the suites need. */
export class Prng {
  #state: number;

  /** Seeds the generator; the same seed yields the same sequence. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

/** The seed a suite uses: `--seed N` on the command line, else the given default. */
export function seedFrom(args: string[], fallback: number): number {
  const index = args.indexOf("--seed");
  return index >= 0 ? Number(args[index + 1]) >>> 0 : fallback;
}

/** A numeric option `--name N` from the command line, else the given default. */
export function numberArg(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}
