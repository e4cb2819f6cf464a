/**
 * "Did you mean …?": the known word nearest to a mistyped one.
 *
 * @module
 */

/** The candidate nearest to `word` by edit distance, when it is close enough to be the one meant. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  // A third of the word may be wrong (at least one letter): "florws" → "flows", but "x" → nothing.
  return best && best.distance <= Math.max(1, Math.floor(word.length / 3)) ? best.candidate : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions each count one. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}
