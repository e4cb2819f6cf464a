/**
 * A served project whose workflow `board` works through a list of five tasks, for the tests of where people
 * see tasks (`weft tasks`, `weft://runs/{runId}/tasks`, Studio's board). Each task runs a verify command that
 * counts its runs in `count` (a change the `changes` step then shows as a diff) and fails while the file
 * `fail` exists, then asks the person how the task ended, as `listFlow` does. {@linkcode driveBoard} leaves
 * the Run with one task of each kind: done, failed, blocked, running and pending.
 *
 * @module
 */
import type { Client } from "./sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { waitForRun } from "../model/support.ts";
import { personGit } from "./git.ts";
import { answered, askHowItEnded, LIST_POINTERS, listStateSchema } from "./list_workflows.ts";
import { call } from "./service.ts";

/** The verify command: counts its runs, prints the count, and fails (exit 3) while `fail` exists. */
export const VERIFY_SCRIPT = 'n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo "$n" > count; ' +
  'echo "check $n"; if [ -f fail ]; then echo "broken $n" >&2; exit 3; fi';

/** The `board` workflow: tasks a to e, c waiting for b. */
export function boardFlow() {
  return {
    name: "board",
    title: "Board",
    description: "Works through five tasks, each verified by a command and ended by the person.",
    entryStage: "tasks",
    stages: {
      tasks: {
        forEach: { ...LIST_POINTERS, verifyStep: "verify" },
        state: {
          schema: listStateSchema({ verify: { type: "object" }, changes: { type: "object" } }),
          initial: {
            items: [
              { id: "a", title: "Write the parser" },
              { id: "b", title: "Check the input" },
              { id: "c", title: "Report the errors", dependsOn: ["b"] },
              { id: "d", title: "Document it" },
              { id: "e", title: "Release it" },
            ],
          },
        },
        entryStep: "verify",
        steps: {
          verify: {
            kind: "command",
            run: ["sh", "-c", VERIFY_SCRIPT],
            resultTo: "/verify",
            routes: { passed: "changes", failed: "changes", timed_out: "changes" },
          },
          changes: {
            kind: "changes",
            since: "item",
            resultTo: "/changes",
            routes: { changed: "work", unchanged: "work" },
          },
          work: askHowItEnded(),
          done: answered("done", { endItem: "done" }, "fail"),
          fail: answered("fail", { endItem: "failed" }, "verify"),
        },
        routes: { finished: { end: "completed" } },
      },
    },
  };
}

/** The project files of `board`, and a git repository so the changes carry a diff. */
export const BOARD_PROJECT = {
  files: { "workflows/board/workflow.json": JSON.stringify(boardFlow(), null, 2), "README.md": "# board\n" },
  setup(dir: string) {
    personGit(dir, "init", "-q");
    personGit(dir, "add", "-A");
    personGit(dir, "commit", "-q", "-m", "start");
  },
  trusted: true,
};

/** Waits until the Run asks how its current task ended. */
export function untilAsked(client: Client, runId: string, taskId: string): Promise<RunView> {
  return waitForRun(
    client,
    runId,
    `asking how ${taskId} ended`,
    (run) => run.list?.current === taskId && run.pendingAction !== undefined,
  );
}

/** Answers how the current task ended. */
export async function endTask(client: Client, run: RunView, end: "done" | "fail"): Promise<RunView> {
  return (await call<{ run: RunView }>(client, "answer_ask", {
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: [{ questionId: "end", isSkipped: false, answer: end }],
  })).run;
}

/** The status of each task, by id. */
export function taskStatuses(run: { list?: RunView["list"] | null }): Record<string, string> {
  return Object.fromEntries((run.list?.items ?? []).map((item) => [item.id, item.status]));
}

/** What {@linkcode driveBoard} leaves. */
export const DRIVEN = { a: "done", b: "failed", c: "blocked", d: "running", e: "pending" };

/**
 * Starts `board` and drives it to {@linkcode DRIVEN}: a passes its verify and is done, b's verify fails and
 * the person fails it (so c is blocked), d passes and waits for the person; e has not begun.
 * `onStarted` runs once the Run exists (a test subscribes there).
 */
export async function driveBoard(
  client: Client,
  projectDir: string,
  onStarted: (run: RunView) => Promise<void> = async () => {},
): Promise<RunView> {
  let run =
    (await call<{ run: RunView }>(client, "flow", { flowName: "board", intent: "work the board" })).run;
  await onStarted(run);
  run = await untilAsked(client, run.runId, "a");
  // b's verify runs as soon as a ends: `fail` must exist before.
  await Deno.writeTextFile(`${projectDir}/fail`, "");
  await endTask(client, run, "done");
  run = await untilAsked(client, run.runId, "b");
  await Deno.remove(`${projectDir}/fail`);
  await endTask(client, run, "fail");
  return await untilAsked(client, run.runId, "d");
}
