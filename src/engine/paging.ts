/**
 * The page sizes of every list (Runs, Artifacts): one bound that the store enforces, the tools publish and
 * the CLI's `--limit` offers, so they cannot disagree.
 *
 * @module
 */

/** The smallest, largest and default number of items in one page of a list. */
export const PAGE_SIZE = { min: 1, max: 200, default: 50 } as const;

/** The bound as people read it: `1–200, default 50`. */
export const PAGE_SIZE_TEXT = `${PAGE_SIZE.min}–${PAGE_SIZE.max}, default ${PAGE_SIZE.default}`;
