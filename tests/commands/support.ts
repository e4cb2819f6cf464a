/** Workflows with one command step, and what the command tests share. */
import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { call } from "../support/service.ts";
import { eventually } from "../support/deadline.ts";
import { timelineOf, waitForRun } from "../model/support.ts";
import type { CommandResult } from "../../src/engine/command_step.ts";

/**
 * A one-stage workflow whose command step `run` writes its result to `/result`, which the stage then commits
 * as its Artifact whatever the outcome (the timeline's `command_ended` says which).
 */
export function commandWorkflow(name: string, step: Record<string, unknown>): Record<string, unknown> {
  const outcomes = ["passed", "failed", "timed_out"];
  return {
    name,
    title: `Command ${name}`,
    description: "runs one command",
    entryStage: "verify",
    stages: {
      verify: {
        state: { schema: { type: "object" }, initial: {} },
        entryStep: "run",
        steps: {
          run: {
            kind: "command",
            resultTo: "/result",
            ...step,
            routes: Object.fromEntries(outcomes.map((outcome) => [outcome, "keep"])),
          },
          keep: { kind: "commit", data: "/result", routes: { committed: { endStage: "done" } } },
        },
        routes: { done: { end: "completed" } },
      },
    },
  };
}

/** The project file of a command workflow. */
export function commandFiles(name: string, step: Record<string, unknown>): Record<string, string> {
  return { [`workflows/${name}/workflow.json`]: JSON.stringify(commandWorkflow(name, step), null, 2) };
}

/**
 * A command whose output arrives in steps a test controls, so that what it shows before the end is shown
 * before the end by construction, not by timing: it prints a line on each stream once the file `start` exists
 * in its folder, then waits for `go` before it prints its last line.
 */
export const STEPWISE = "while [ ! -f start ]; do sleep 0.02; done; echo first; echo warning >&2; " +
  "while [ ! -f go ]; do sleep 0.02; done; echo second";

/** Starts a Run of `flowName` through `client`. */
export async function startRun(client: Client, flowName: string): Promise<RunView> {
  return (await call<{ run: RunView }>(client, "flow", { flowName, intent: "check the project" })).run;
}

/** Waits until the Run has ended (completed, failed or cancelled). */
export function ended(client: Client, runId: string): Promise<RunView> {
  return waitForRun(client, runId, "ended", (run) => !["running", "waiting"].includes(run.status));
}

/** Whether a process of this pid still runs (a zombie does not). */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The result the Run's command left in its stage state, as the stage committed it. */
export async function committedResult(client: Client, flowName: string): Promise<CommandResult> {
  const { artifact } = await call<{ artifact: { data: CommandResult } | null }>(client, "get_artifact", {
    flowName,
    stageName: "verify",
  });
  if (!artifact) throw new Error(`${flowName} committed no result`);
  return artifact.data;
}

/** The outcome and the `command_ended` event of a Run's command. */
export async function commandEnd(client: Client, runId: string) {
  const timeline = await timelineOf(client, runId);
  const end = timeline.find((event) => event.type === "command_ended");
  return { timeline, end, outcome: end?.outcome };
}

/**
 * Shell that starts a daemon which leaves the command's process group and session (`setsid`) and writes its
 * pid to the file `daemon` in the command's folder, then waits until it has: a process only the command's
 * tag can find.
 */
export const DAEMON = "setsid sh -c 'echo $$ > daemon.tmp && mv daemon.tmp daemon; exec sleep 1000' & " +
  "while [ ! -s daemon ]; do sleep 0.02; done; ";

/** The pids a command wrote to `file` in `dir` (space-separated), once it has written them. */
export function pidsIn(dir: string, file: string): Promise<number[]> {
  return eventually(`the command to write ${file}`, async () => {
    const text = await Deno.readTextFile(`${dir}/${file}`).catch(() => "");
    return text.trim() ? text.trim().split(" ").map(Number) : undefined;
  });
}
