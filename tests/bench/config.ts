/**
 * How long and how often `deno task bench` measures: full iterations, or fewer with `--quick` (a smoke test).
 *
 * @module
 */

/** Whether `--quick` asked for fewer iterations. */
export const QUICK = Deno.args.includes("--quick");
/** The whole run stops (and cleans up) after this long, whatever it is doing. */
export const DEADLINE_MS = 240_000;
/** Any one child start or tool call taking longer than this fails the row. */
export const STEP_TIMEOUT_MS = 30_000;

/** Iterations of each row group. */
export const N = QUICK
  ? { starts: 2, latency: 60, block: 1, runs: 5, handoffs: 5, listCalls: 40, concurrent: 16, runsEach: 1 }
  : {
    starts: 7,
    latency: 300,
    block: 1,
    runs: 30,
    handoffs: 30,
    listCalls: 200,
    concurrent: 16,
    runsEach: 4,
  };
/** How many Artifacts the small and the large store of the `list_artifacts` row hold. */
export const SEED = { small: 100, large: 20_000 };
