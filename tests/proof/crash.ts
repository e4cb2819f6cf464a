/**
 * The crash loop (`deno task crash`): start `weft serve`, drive ledger and intent Runs from several MCP
 * clients, SIGKILL the service after a seeded number of acknowledged operations (while other calls are in
 * flight), check SQLite while it is down, restart it and check that nothing acknowledged was lost or changed.
 *
 * Usage: `deno task crash [--kills N] [--seed N] [--clients N]`
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { closeClient, mcpClient, serve } from "../support/service.ts";
import { Actor, proofProject } from "./support.ts";
import { numberArg, Prng, seedFrom } from "./prng.ts";
import { report, tool } from "./probe.ts";
import {
  checkDatabase,
  checkPublications,
  type TrackedCommit,
  type TrackedRun,
  verifyAfterRestart,
} from "./crash_checks.ts";

/** How a crash loop runs. */
export interface CrashOptions {
  kills: number;
  seed: number;
  clients: number;
  /** Bounds of the seeded number of acknowledged operations before each kill. */
  opsBeforeKill: [number, number];
}

/** The figures of one crash loop. */
export interface CrashFigures {
  seed: number;
  kills: number;
  operations: number;
  acknowledgedCommits: number;
  commitChecks: number;
  runChecks: number;
  personWaitsKept: number;
  interrupted: number;
  violations: string[];
  seconds: number;
}

/** Shared by the actors of one cycle: the Runs, the acknowledged commits and when to stop. */
interface Cycle {
  runs: Map<string, TrackedRun>;
  commits: TrackedCommit[];
  submitted: Map<string, unknown>;
  violations: string[];
  acknowledged: number;
  killAt: number;
  killed: Promise<void>;
  kill: () => void;
}

/** Runs the crash loop and returns its figures; violations are collected, never thrown. */
export async function crashLoop(options: CrashOptions): Promise<CrashFigures> {
  const started = performance.now();
  const prng = new Prng(options.seed);
  const dir = await proofProject();
  const runs = new Map<string, TrackedRun>();
  const commits: TrackedCommit[] = [];
  const submitted = new Map<string, unknown>();
  const figures: CrashFigures = {
    seed: options.seed,
    kills: 0,
    operations: 0,
    acknowledgedCommits: 0,
    commitChecks: 0,
    runChecks: 0,
    personWaitsKept: 0,
    interrupted: 0,
    violations: [],
    seconds: 0,
  };
  try {
    for (let round = 0; round <= options.kills; round++) {
      const served = await serve(dir);
      const clients: Client[] = [];
      let stopped = false;
      try {
        for (let i = 0; i < options.clients; i++) {
          clients.push(await mcpClient(served, "/mcp", { name: `crash-${i}` }));
        }
        // The person answers, at the terminal, what only a person may answer.
        const person = await mcpClient(served, "/internal/mcp", { name: "crash-person" });
        clients.push(person);
        if (round > 0) {
          const verified = await verifyAfterRestart(clients[0], runs, commits);
          figures.runChecks += verified.runs;
          figures.commitChecks += verified.commits;
          figures.personWaitsKept += verified.personWaitsKept;
          figures.interrupted += verified.interrupted;
          figures.violations.push(...verified.violations.map((v) => `after kill ${round}: ${v}`));
        }
        if (round === options.kills) {
          figures.violations.push(...await acceptsWork(clients[0]));
          await Promise.all(clients.map(closeClient));
          clients.length = 0;
          await served.stop();
          stopped = true;
          figures.violations.push(
            ...[...checkDatabase(dir, commits), ...await checkPublications(dir, true)]
              .map((v) => `after the last stop: ${v}`),
          );
          break;
        }
        const killed = Promise.withResolvers<void>();
        const cycle: Cycle = {
          runs,
          commits,
          submitted,
          violations: figures.violations,
          acknowledged: 0,
          killAt: prng.int(...options.opsBeforeKill),
          killed: killed.promise,
          kill: killed.resolve,
        };
        const actors = clients.slice(0, options.clients).map((client, i) =>
          drive(new Actor(`r${round}c${i}`, new Prng(prng.int(0, 2 ** 31)), client, submitted, person), cycle)
        );
        await cycle.killed;
        await served.kill();
        stopped = true;
        await Promise.allSettled(actors);
        figures.kills++;
        figures.operations += cycle.acknowledged;
        figures.violations.push(
          ...[...checkDatabase(dir, commits), ...await checkPublications(dir, false)]
            .map((v) => `kill ${round + 1}: ${v}`),
        );
      } finally {
        for (const client of clients) await client.close().catch(() => {});
        if (!stopped) await served.kill();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  figures.acknowledgedCommits = commits.length;
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
}

/** One client's loop: start Runs, advance waiting ones, now and then cancel or read; until the kill. */
async function drive(actor: Actor, cycle: Cycle): Promise<void> {
  let killed = false;
  cycle.killed.then(() => killed = true);
  const acknowledge = () => {
    if (++cycle.acknowledged >= cycle.killAt) cycle.kill();
  };
  while (!killed) {
    const waiting = [...cycle.runs.entries()].filter(([, run]) =>
      run.acked.status === "waiting" && !run.busy
    );
    const roll = actor.prng.next();
    try {
      if (roll < 0.25 || waiting.length === 0) {
        const flowName = actor.prng.chance(0.6) ? "ledger" : "intent";
        const outcome = await tool<{ run: RunView }>(actor.client, "flow", {
          flowName,
          intent: `crash ${actor.name}`,
        });
        if (!outcome.ok) cycle.violations.push(`flow ${flowName}: ${outcome.text}`);
        else {cycle.runs.set(outcome.value.run.runId, {
            acked: outcome.value.run,
            uncertain: false,
            busy: false,
          });}
      } else if (roll < 0.3) {
        const outcome = await tool(actor.client, "list_runs", { limit: 5 });
        if (!outcome.ok) cycle.violations.push(`list_runs: ${outcome.text}`);
      } else {
        const [runId, tracked] = actor.prng.pick(waiting);
        tracked.busy = true;
        tracked.uncertain = true;
        try {
          await step(actor, runId, tracked, cycle, roll < 0.33);
        } finally {
          tracked.busy = false;
        }
      }
      acknowledge();
    } catch {
      // The transport failed: the service was killed under this call, whose outcome stays uncertain.
      return;
    }
  }
}

/** Advances (or cancels) one tracked Run and records what its client was told. */
async function step(actor: Actor, runId: string, tracked: TrackedRun, cycle: Cycle, cancel: boolean) {
  if (cancel) {
    const outcome = await tool<{ run: RunView }>(actor.client, "cancel_run", { runId });
    if (!outcome.ok) cycle.violations.push(`cancel_run ${runId}: ${outcome.text}`);
    else tracked.acked = outcome.value.run;
    tracked.uncertain = false;
    return;
  }
  const advance = await actor.advance(tracked.acked);
  for (const { name, outcome } of advance.calls) {
    if (!outcome.ok) cycle.violations.push(`${name} on ${runId}: ${outcome.text}`);
  }
  if (advance.committed) cycle.commits.push(advance.committed);
  if (advance.run) tracked.acked = advance.run;
  else {
    const current = await tool<{ run: RunView }>(actor.client, "get_run", { runId });
    if (current.ok) tracked.acked = current.value.run;
  }
  tracked.uncertain = false;
}

/** A service that came back must take new work: a ledger Run starts and takes an answer. */
async function acceptsWork(client: Client): Promise<string[]> {
  const started = await tool<{ run: RunView }>(client, "flow", {
    flowName: "ledger",
    intent: "after the crashes",
  });
  if (!started.ok) return [`the restarted service refused flow: ${started.text}`];
  const run = started.value.run;
  if (run.status !== "waiting" || !run.pendingAction) {
    return [`a new ledger Run is ${run.status}, not waiting`];
  }
  return [];
}

if (import.meta.main) {
  const args = Deno.args;
  const figures = await crashLoop({
    kills: numberArg(args, "kills", 50),
    seed: seedFrom(args, 7),
    clients: numberArg(args, "clients", 4),
    opsBeforeKill: [numberArg(args, "min-ops", 4), numberArg(args, "max-ops", 40)],
  });
  report("crash", figures);
  Deno.exit(figures.violations.length === 0 ? 0 : 1);
}
