/**
 * A plan confirmed through the real `intent` workflow over MCP: the IDE's agent submits the specification
 * and the plan, and cannot confirm them itself; the person confirms each on the internal endpoint. What the
 * `deliver` suites start from, with the agent's side of one task's attempt.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "./sdk_test_client.ts";
import { call, callError } from "./service.ts";
import { handOff, SPECIFICATION } from "./intent_agent.ts";
import { THREE_TASKS } from "./deliver.ts";
import { dirname } from "node:path";
import { claim, complete } from "../agent/support.ts";
import { waitForRun } from "../model/support.ts";
import { personGit } from "./git.ts";

/** The project's verify: fails while a source file says BROKEN. */
const VERIFY =
  'for f in src/*.ts; do if grep -q BROKEN "$f"; then echo "FAIL $f is broken"; exit 1; fi; done; echo ok';

/**
 * A served project for `deliver`: a git repository (so each task's changes carry a diff) whose trusted
 * verify command fails while a file under `src/` says BROKEN.
 */
export const DELIVER_PROJECT = deliverProject(VERIFY);

/** Runs `intent` to completed with `plan` (the three-task plan by default); resolves with the Run. */
export async function confirmedPlanOverMcp(
  { ide, person }: { ide: Client; person: Client },
  plan: unknown = THREE_TASKS,
): Promise<RunView> {
  let run = (await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "three tasks" })).run;
  const send = async (name: string, args: Record<string, unknown>) => {
    try {
      return { ok: true, value: await call(ide, name, args) };
    } catch {
      return { ok: false };
    }
  };
  for (const [stage, document] of [["specification", SPECIFICATION], ["plan", plan]] as const) {
    const done = await handOff(send, run, { stage, document, claimId: `ide-${stage}` }) as { run: RunView };
    assert.ok(done, `the ${stage} handoff failed`);
    const args = { runId: run.runId, actionId: done.run.pendingAction!.id, answer: { isConfirmed: true } };
    // The confirmation is the person's: the agent that drafted the document cannot give it.
    assert.equal(
      (await callError(ide, "answer_ask", args)).code,
      "NOT_ALLOWED",
      `the agent confirmed its ${stage}`,
    );
    run = (await call<{ run: RunView }>(person, "answer_ask", args)).run;
  }
  assert.equal(run.status, "completed");
  return run;
}

/**
 * The IDE's agent implements the current task of a `deliver` Run by writing `file` into the project; resolves
 * once the service ran the task's verify.
 */
export function implementOverMcp(
  client: Client,
  run: RunView,
  projectDir: string,
  file: string,
  text: string,
): Promise<RunView> {
  return implementFilesOverMcp(client, run, projectDir, { [file]: text }, `wrote ${file}`);
}

/**
 * The IDE's agent implements the current task: claims its call, writes `files` into the project, completes
 * it with `summary`; resolves once the service has run the verify command and the Run waits again.
 */
export async function implementFilesOverMcp(
  client: Client,
  run: RunView,
  projectDir: string,
  files: Record<string, string>,
  summary: string,
): Promise<RunView> {
  const claimed = await claim(client, run, "ide-agent");
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(`${projectDir}/${path}`), { recursive: true });
    await Deno.writeTextFile(`${projectDir}/${path}`, text);
  }
  const after = await complete(client, claimed, { outcome: "implemented", summary });
  return await waitForRun(
    client,
    after.runId,
    "verified",
    (now) => now.status !== "running" && !now.pendingCommand,
  );
}

/**
 * A project to serve for `deliver`: a git repository holding `files` (a README by default) committed, whose
 * verify command is the shell script `verify`, trusted.
 */
export function deliverProject(verify: string, files: Record<string, string> = { "README.md": "# demo\n" }) {
  return {
    files: { "weft.json": JSON.stringify({ commands: { verify: ["sh", "-c", verify] } }), ...files },
    setup(dir: string) {
      personGit(dir, "init", "-q");
      personGit(dir, "add", "-A");
      personGit(dir, "commit", "-q", "-m", "start");
    },
    trusted: true,
  };
}
