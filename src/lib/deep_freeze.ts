/**
 * Freezing a value shared between readers, so that one reader changing it throws instead of changing what
 * the others are given.
 *
 * @module
 */

/** Freezes `value` and every object and array inside it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
