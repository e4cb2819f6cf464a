/**
 * The turn-taking of a storage's units of work: each starts once every unit queued before it has settled, so
 * a unit that awaits between two statements never lets another unit into its transaction.
 *
 * @module
 */

/** A queue of units of work; `inTurn(work)` runs `work` after every earlier one, whatever their outcome. */
export function unitQueue(): <T>(work: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const turn = queue.then(work, work);
    queue = turn.catch(() => {});
    return turn;
  };
}
