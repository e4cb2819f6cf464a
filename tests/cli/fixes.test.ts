/**
 * Every error code the CLI can print, produced through the real command line, with the `fix:` it prints
 * checked against the action that actually fixes that case. The table is typed over both catalogs, so a new
 * code cannot be added without saying here how a person meets it and what they are told to do.
 */

import assert from "node:assert/strict";
import { describeFailure, type FailureCode } from "../../src/cli/command_line/failure.ts";
import { WeftError } from "../../src/errors.ts";
import { EXIT } from "../../src/cli/command_line/exit_codes.ts";
import { UntrustedStateOffline } from "../../src/client/offline.ts";
import { LockHeldError } from "../../src/weft_dir/lock.ts";
import { UntrustedStateError } from "../../src/weft_dir/trust.ts";
import { call, closeClient, mcpClient, runWeft, serve, tempProject, WEFT } from "../support/service.ts";
import { humanFlow, REVIEW_ANSWER, workflowFiles } from "../support/workflows.ts";
import { probeFiles } from "../model/support.ts";

const REVIEW = humanFlow({ name: "review", title: "Review", description: "Asks, checks, confirms." });
const BROKEN = { name: "broken", title: "Broken", entryStage: "nowhere", stages: {} };

/** How a person meets a code at the terminal, and the fix they must be shown. */
interface Scenario {
  /** The command line; `RUN` becomes a Run waiting for its questions, `TAKEN` a port another program holds. */
  args: string[];
  stdin?: string;
  /** Runs without a service (and, with `staleLock`, with a crashed one's lock). */
  offline?: "no service" | "stale lock";
  fix: RegExp;
  /** What the message must say, where the issue asked for words (the port, the workflow). */
  message?: RegExp;
}

/** Codes the CLI cannot meet on its own command line, with why; their fixes are still checked below. */
type Unreachable = { unreachable: string; fix: RegExp };

const SCENARIOS: Record<FailureCode, Scenario | Unreachable> = {
  USAGE: { args: ["runs", "--limt", "3"], fix: /^see `weft runs --help`$/ },
  INVALID_INPUT: {
    args: ["attach", "RUN", "--answer-json", "-"],
    stdin: "yes",
    fix: /send the exact answer JSON/,
  },
  PROJECT_NOT_FOUND: {
    args: ["flows", "--project", "no-such-dir"],
    fix: /check the path given to --project/,
  },
  SERVICE_OFFLINE: { args: ["runs"], offline: "no service", fix: /start it with `weft start`/ },
  PORT_IN_USE: {
    args: ["start", "--port", "TAKEN"],
    offline: "no service",
    message: /^port \d+ is already in use by another program$/,
    fix: /^choose another with --port N \(--port 0 takes any free port\), or stop the program on port \d+$/,
  },
  ALREADY_RUNNING: {
    args: ["start", "--port", "TAKEN"],
    message: /^the service already runs for this project on port \d+, not \d+$/,
    fix: /^to move it: weft stop && weft start --port \d+$/,
  },
  NEEDS_RECOVERY: { args: ["runs"], offline: "stale lock", fix: /`weft start` clears a crashed service's/ },
  OUTPUT_EXISTS: {
    args: [
      "artifact",
      "--flow",
      "review",
      "--stage",
      "collect",
      "--output",
      "workflows/review/workflow.json",
    ],
    fix: /^add --overwrite to replace it, or choose another --output$/,
  },
  OUTPUT_UNWRITABLE: {
    args: ["artifact", "--flow", "review", "--stage", "collect", "--output", "no/such/dir/out.json"],
    message: /^cannot write no\/such\/dir\/out\.json: its folder does not exist$/,
    fix: /^check the folder exists and is writable$/,
  },
  WORKFLOW_EXISTS: {
    args: ["init", "review"],
    message: /^workflows\/review\/workflow\.json already exists; it was left untouched$/,
    fix: /^edit workflows\/review\/workflow\.json, or choose another name: weft init <name>$/,
  },
  FAILURE: { unreachable: "only a failure nothing classified", fix: /`weft doctor` checks the project/ },
  INVALID_REQUEST: {
    args: ["flow", "broken", "--intent", "anything"],
    fix: /^fix workflow "broken" as `weft flows` shows .*edits to workflows\/ apply without a restart$/,
  },
  NOT_FOUND: { args: ["run", "run_missing"], fix: /check the Run id; `weft runs` lists the Runs/ },
  CONFLICT: {
    args: ["attach", "RUN", "--answer-json", "-", "--action", "act_other"],
    stdin: JSON.stringify(REVIEW_ANSWER),
    fix: /^look at what it asks with `weft attach run_[\w-]+ --no-interactive`$/,
  },
  NOT_TRUSTED: {
    args: ["flow", "probe", "--intent", "an app"],
    fix: /trust it with `weft trust`/,
  },
  CONFIGURATION_REQUIRED: {
    args: ["flow", "intent", "--intent", "an app"],
    fix: /start this one from your IDE's agent \(see `weft config <ide>`\)/,
  },
  BUSY: { unreachable: "the store stayed locked past its timeout", fix: /^retry in a moment$/ },
  NOT_ALLOWED: {
    unreachable: "the CLI's endpoint may answer every Run; only the IDE's are refused",
    fix: /in the terminal \(`weft attach RUN`\) or in Studio/,
  },
  STORAGE_ERROR: { unreachable: "the disk failed under the store", fix: /weft doctor/ },
  INTERNAL: { unreachable: "a bug in the service", fix: /`weft logs` shows what the service saw/ },
  AGENT_OUTPUT_INVALID: { unreachable: "returned to an agent's submit only", fix: /weft run RUN/ },
  AGENT_CALL_FAILED: { unreachable: "returned to an agent only", fix: /weft run RUN/ },
  TOOL_FAILED: { unreachable: "returned to an agent's tool call only", fix: /weft logs RUN/ },
  RUN_INTERRUPTED: { unreachable: "a Run's lastError, never a CLI failure", fix: /weft retry RUN/ },
  MODEL_UNAVAILABLE: { unreachable: "a Run's lastError, never a CLI failure", fix: /weft retry RUN/ },
  MODEL_REQUEST_FAILED: { unreachable: "a Run's lastError, never a CLI failure", fix: /weft doctor/ },
  COMMAND_UNAVAILABLE: { unreachable: "a Run's lastError, never a CLI failure", fix: /weft retry RUN/ },
  BUDGET_EXCEEDED: { unreachable: "a Run's lastError, never a CLI failure", fix: /raise the budget/ },
  LIST_INVALID: { unreachable: "a Run's lastError, never a CLI failure", fix: /fix the items/ },
  PUBLISH_FAILED: { unreachable: "a timeline event's error, never a CLI failure", fix: /publish template/ },
};

Deno.test("every error code the CLI prints comes with the fix that fixes that case", async (t) => {
  const cwd = await tempProject({
    ...workflowFiles(REVIEW),
    "workflows/broken/workflow.json": JSON.stringify(BROKEN),
    // A role only the untrusted weft.json names: `probe` needs it, `intent` (default) has none.
    ...probeFiles({ role: "reviewer" }),
    "weft.json": JSON.stringify({
      models: { reviewer: { provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:9/v1" } },
    }),
  });
  const offline = await tempProject();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = String((taken.addr as Deno.NetAddr).port);
  const placeholders = (args: string[], runId = "") =>
    args.map((arg) => arg === "RUN" ? runId : arg === "TAKEN" ? port : arg);
  try {
    await t.step("codes met offline", async () => {
      for (const [code, scenario] of Object.entries(SCENARIOS)) {
        if ("unreachable" in scenario || !scenario.offline) continue;
        if (scenario.offline === "stale lock") {
          const gone = new Deno.Command("true").spawn();
          await gone.status;
          // weft's own modes: with others, the state is not weft's (untrusted), not a crash's leftovers.
          await Deno.mkdir(`${offline}/.weft`, { recursive: true, mode: 0o700 });
          await Deno.chmod(`${offline}/.weft`, 0o700);
          await Deno.writeTextFile(
            `${offline}/.weft/service.lock`,
            JSON.stringify({ pid: gone.pid, instanceId: "inst_gone", startedAt: new Date().toISOString() }),
            { mode: 0o600 },
          );
          const connection = {
            version: 1,
            url: "http://127.0.0.1:9",
            port: 9,
            pid: gone.pid,
            instanceId: "inst_gone",
            externalToken: "e".repeat(43),
            internalToken: "i".repeat(43),
          };
          await Deno.writeTextFile(`${offline}/.weft/connection.json`, JSON.stringify(connection), {
            mode: 0o600,
          });
        }
        await expectFix(code, { ...scenario, args: placeholders(scenario.args) }, offline);
      }
    });

    const served = await serve(cwd);
    try {
      // One Run committed (for the Artifact to export), one waiting for its questions.
      const done = await startReview(cwd);
      for (const answer of [REVIEW_ANSWER, { isConfirmed: true }]) {
        await runWeft(["attach", done, "--answer-json", "-"], { cwd, stdin: JSON.stringify(answer) });
      }
      const runId = await startReview(cwd);
      await t.step("codes met with the service running", async () => {
        for (const [code, scenario] of Object.entries(SCENARIOS)) {
          if ("unreachable" in scenario || scenario.offline) continue;
          await expectFix(code, { ...scenario, args: placeholders(scenario.args, runId) }, cwd);
        }
      });

      await t.step(
        "after an IDE's Run of an agent workflow is cancelled, the way back is the IDE",
        async () => {
          const ide = await mcpClient(served, "/mcp");
          try {
            const { run } = await call<{ run: { runId: string } }>(ide, "flow", {
              flowName: "intent",
              intent: "An app",
            });
            const cancelled = await runWeft(["cancel", run.runId], { cwd });
            assert.equal(cancelled.code, 0, cancelled.stderr);
            assert.match(cancelled.stdout, /start again: from your IDE's agent/);
            assert.doesNotMatch(cancelled.stdout, /weft flow intent/);
          } finally {
            await closeClient(ide);
          }
          const own = await runWeft(["cancel", runId], { cwd });
          assert.match(own.stdout, new RegExp(`start again with: ${WEFT} flow review --intent …`));
        },
      );
    } finally {
      await served.stop();
    }
  } finally {
    taken.close();
    await Deno.remove(cwd, { recursive: true });
    await Deno.remove(offline, { recursive: true });
  }
});

Deno.test("the codes no command line reaches still get a fix that names an action", () => {
  for (const [code, scenario] of Object.entries(SCENARIOS)) {
    if (!("unreachable" in scenario)) continue;
    const error = code === "FAILURE" ? new Error("boom") : new WeftError(code as never, "what happened");
    const failure = describeFailure(error, "run");
    assert.equal(failure.code, code);
    assert.match(failure.fix, scenario.fix, code);
  }
});

async function startReview(cwd: string): Promise<string> {
  const started = await runWeft(["flow", "review", "--intent", "a review", "--json"], { cwd });
  return JSON.parse(started.stdout).run.runId;
}

async function expectFix(code: string, scenario: Scenario, cwd: string): Promise<void> {
  const { stdout, stderr } = await runWeft([...scenario.args, "--json"], { cwd, stdin: scenario.stdin });
  let error;
  try {
    error = JSON.parse(stdout).error;
  } catch {
    throw new Error(`${code}: ${scenario.args.join(" ")} printed no JSON error: ${stdout}\n${stderr}`);
  }
  assert.equal(error?.code, code, `${scenario.args.join(" ")}: ${stdout}`);
  assert.match(error.fix, scenario.fix, `${code}: ${error.message} — ${error.fix}`);
  if (scenario.message) assert.match(error.message, scenario.message, code);
  assert.equal(stderr, "", "under --json the error is printed once, on stdout");
}

Deno.test("state weft did not make, or a lock a live process holds, keeps its code and exit wherever it is met", () => {
  const untrusted = describeFailure(new UntrustedStateError(".weft has mode 0755"), "token");
  assert.equal(untrusted.code, "NEEDS_RECOVERY");
  assert.equal(untrusted.exit, EXIT.NEEDS_RECOVERY);
  assert.match(untrusted.fix, /mv \.weft \.weft\.untrusted/);
  const offline = describeFailure(
    new UntrustedStateOffline("untrusted state: .weft has mode 0755", true),
    "runs",
  );
  assert.equal(offline.exit, EXIT.NEEDS_RECOVERY);
  assert.match(offline.fix, /mv \.weft \.weft\.untrusted/, "not the crashed service's fix");
  const held = describeFailure(
    new LockHeldError({ pid: 4242, instanceId: "inst_x", startedAt: "2026-01-01T00:00:00Z" }),
    "serve",
  );
  assert.equal(held.code, "ALREADY_RUNNING");
  assert.match(held.message, /pid 4242/);
});
