/**
 * How long and how often `deno task bench` measures: full iterations, or fewer with `--quick` (a smoke test).
 *
 * @module
 */

/** Whether `--quick` asked for fewer iterations. */
export const QUICK = Deno.args.includes("--quick");
/**
 * Whether `--startup` asked for the start-up rows only (`weft serve` from source and from the bundle, and
 * `weft mcp`): what docs/performance.md's five-run spread of the start-up ratios is made of.
 */
export const STARTUP_ONLY = Deno.args.includes("--startup");
/**
 * How long the memory-at-rest row leaves both servers quiet before it reads their memory
 * (`--rest-seconds N`, default 60: what "at rest" means to a person who leaves the IDE open).
 */
export const REST_SECONDS = Number(flagValue("--rest-seconds") ?? 60);

/** The row groups `--only` may name, each a function of `tests/bench/main.ts`. */
export const GROUPS = [
  "startup",
  "latency",
  "gate",
  "fixture",
  "handoff",
  "notification",
  "concurrent",
  "sizes",
  "bridge",
  "cold",
  "memory",
  "artifacts",
  "runs",
  "soak",
  "turns",
  "studio",
  "context",
] as const;
/** One of {@link GROUPS}. */
export type Group = typeof GROUPS[number];

/**
 * The groups `--only GROUP,…` asked for (every group without it): one row group alone makes an iteration
 * affordable on a busy machine. An unknown name stops the bench before it measures anything.
 */
export const ONLY: ReadonlySet<Group> = parseOnly(flagValue("--only"));

/** Whether `group` runs in this bench (named by `--only`, or no `--only`). */
export function runs(group: Group): boolean {
  return ONLY.has(group);
}

function parseOnly(value: string | undefined): ReadonlySet<Group> {
  if (value === undefined) return new Set(GROUPS);
  const names = value.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = names.filter((name) => !(GROUPS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes groups among ${GROUPS.join(", ")}; got ${JSON.stringify(value)}`);
  }
  return new Set(names as Group[]);
}

function flagValue(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}

/** The whole run stops (and cleans up) after this long, whatever it is doing. */
export const DEADLINE_MS = 600_000;
/** Any one child start or tool call taking longer than this fails the row. */
export const STEP_TIMEOUT_MS = 30_000;

/**
 * Iterations of each row group. `warmup` Runs and handoffs go unmeasured first, so weft's paths are measured
 * as warm as the echo baseline, which has by then served hundreds of calls: the figures describe a service
 * that has been running, not its first few calls. `spawns` counts the starts of the bundle and bridge rows,
 * fewer than `starts` because each builds or spawns more. `restPairs` counts the weft services and bare servers
 * the memory-at-rest row starts (one of each per pair).
 */
export const N = QUICK
  ? {
    starts: 2,
    spawns: 2,
    latency: 60,
    block: 1,
    warmup: 3,
    runs: 5,
    handoffs: 5,
    listCalls: 40,
    concurrent: 16,
    runsEach: 1,
    pageLoads: 3,
    restPairs: 2,
  }
  : {
    starts: 15,
    spawns: 9,
    latency: 300,
    block: 1,
    warmup: 30,
    runs: 60,
    handoffs: 60,
    listCalls: 200,
    concurrent: 16,
    runsEach: 4,
    pageLoads: 15,
    restPairs: 5,
  };
/** How many Artifacts the small and the large store of the `list_artifacts` row hold. */
export const SEED = { small: 100, large: 20_000 };
