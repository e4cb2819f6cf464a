/**
 * The shortest edit script between two sequences (Myers' O((N+M)D) algorithm), bounded: what Studio's
 * Artifact diff and the unified diffs of project file edits are built on. Pure: no imports, no runtime API,
 * so the Studio page bundles it too.
 *
 * @module
 */

/**
 * Past this many inserted and deleted items, the middle of two sequences is shown as replaced as a whole: the
 * search keeps one frontier per edit, so its memory grows with the square of the edits.
 */
export const MAX_EDITS = 2_000;

/** One step of an edit script: keep item `a` of the first (as `b` of the second), add `b`, or delete `a`. */
export type EditStep = { kind: "same"; a: number; b: number } | { kind: "add"; b: number } | {
  kind: "del";
  a: number;
};

/**
 * The shortest edit script of two sequences, as keep/insert/delete steps (Myers' O((N+M)D) algorithm), or
 * past {@linkcode MAX_EDITS} a script that replaces the differing middle whole.
 */
export function editScript<T>(
  a: readonly T[],
  b: readonly T[],
  same: (x: T, y: T) => boolean = Object.is,
): EditStep[] {
  // Common ends first: most revisions change a little in the middle, and this keeps the search small.
  let start = 0;
  while (start < a.length && start < b.length && same(a[start], b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && same(a[endA - 1], b[endB - 1])) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const max = n + m;
  const offset = max + 1;
  const frontier = new Int32Array(2 * max + 3);
  // trace[d] is the frontier before round d, for diagonals -d..d (all that round d reads).
  const trace: Int32Array[] = [];
  let found = max === 0;
  for (let d = 0; d <= Math.min(max, MAX_EDITS) && !found; d++) {
    trace.push(frontier.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && frontier[offset + k - 1] < frontier[offset + k + 1])
        ? frontier[offset + k + 1]
        : frontier[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && same(a[start + x], b[start + y])) {
        x++;
        y++;
      }
      frontier[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  const middle: EditStep[] = [];
  if (!found) {
    for (let i = 0; i < n; i++) middle.push({ kind: "del", a: start + i });
    for (let j = 0; j < m; j++) middle.push({ kind: "add", b: start + j });
    return [...keep(0, 0, start), ...middle, ...keep(endA, endB, a.length - endA)];
  }
  // Walk the trace back from the end to recover the path.
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const v = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && v[d + k - 1] < v[d + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[d + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      middle.push({ kind: "same", a: start + x, b: start + y });
    }
    if (d > 0) {
      if (down) middle.push({ kind: "add", b: start + --y });
      else middle.push({ kind: "del", a: start + --x });
    }
  }
  middle.reverse();
  return [...keep(0, 0, start), ...middle, ...keep(endA, endB, a.length - endA)];
}

function keep(fromA: number, fromB: number, count: number): EditStep[] {
  return Array.from({ length: count }, (_, i) => ({ kind: "same" as const, a: fromA + i, b: fromB + i }));
}
