/**
 * The IDE-only path, end to end: no model of weft's is configured, the person works at the terminal with the
 * `weft` the README installs, and the IDE's agent is a real MCP SDK client on `/mcp`. The person types only
 * `weft flow intent …` (the README's) and `weft doctor`; every further command is a hint weft printed, parsed
 * from the terminal and run as printed. The agent learns of each Run only from the sentence the terminal
 * says to tell it. `intent` → `deliver` → `revise` all complete, each confirmation given at the terminal.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { call, closeClient, mcpClient, trustProject, withServedProject } from "../support/service.ts";
import { handOff, PLAN, SPECIFICATION, type ToolCaller } from "../support/intent_agent.ts";
import { installWeft } from "../support/weft_wrapper.ts";
import { Terminal } from "./support.ts";

const VERIFY = ["sh", "-c", "test -f src/csv.ts"];
const EDITED_SUMMARY = "Export reports as CSV files, one per report, as a person wrote it.";

Deno.test("the IDE-only path: intent, deliver and revise run with no model of weft's, following only printed hints", async () => {
  const installed = await installWeft();
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  const env = {
    NO_COLOR: "1",
    XDG_CONFIG_HOME: configHome,
    PATH: `${installed.binDir}:${Deno.env.get("PATH")}`,
  };
  const files = { "README.md": "# demo\n", "weft.json": JSON.stringify({ commands: { verify: VERIFY } }) };
  try {
    await withServedProject({ files, env: { XDG_CONFIG_HOME: configHome } }, async (served) => {
      const cwd = served.projectDir;
      // The README's step for a project's commands: the person trusts them once.
      await trustProject(cwd, configHome);
      const ide = await mcpClient(served, "/mcp");
      const terminals: Terminal[] = [];
      const atTerminal = (line: string) => {
        const terminal = new Terminal(line, { cwd, env });
        terminals.push(terminal);
        return terminal;
      };
      try {
        // 1. intent: the agent drafts the specification and the plan; the person confirms each here.
        let terminal = atTerminal(`weft flow intent --intent "Add CSV export to reports"`);
        let seen = 0;
        for (const [stage, document] of [["specification", SPECIFICATION], ["plan", PLAN]] as const) {
          const runId = await toldAgent(terminal, seen);
          await handOff(agent(ide), await runOf(ide, runId), { stage, document, claimId: stage });
          seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
          await terminal.type("y");
        }
        let next = await printedHint(terminal, "deliver its plan, task by task, with: ", seen);
        assert.equal(await terminal.exit(), 0, terminal.output);
        assert.match(next, /^weft flow deliver --intent run_\S+$/, "the hint names the weft on PATH");

        // 2. deliver: the agent implements the one task with its own editor, verify passes, the person confirms.
        terminal = atTerminal(next);
        const deliverRun = await toldAgent(terminal, 0);
        await implement(ide, cwd, await runOf(ide, deliverRun));
        seen = await terminal.waitFor("confirm (y) or revise (r)? ");
        await terminal.type("y");
        next = await printedHint(terminal, "see its tasks with: ", seen);
        assert.equal(await terminal.exit(), 0, terminal.output);
        assert.equal(next, `weft tasks ${deliverRun}`);
        terminal = atTerminal(next);
        assert.equal(await terminal.exit(), 0, terminal.output);
        assert.match(terminal.output, /T1 +CSV +done/);

        // 3. revise: the person edits the published specification; doctor names the command that brings it back.
        const path = "docs/weft/add-csv-export-to-reports/specification.md";
        const published = await Deno.readTextFile(`${cwd}/${path}`);
        await Deno.writeTextFile(`${cwd}/${path}`, published.replace(SPECIFICATION.summary, EDITED_SUMMARY));
        terminal = atTerminal("weft doctor");
        await terminal.exit();
        next = /fix: `(weft revise [^`]+)`/.exec(terminal.output)?.[1] ?? "";
        assert.equal(next, `weft revise ${path}`, terminal.output);
        terminal = atTerminal(next);
        const revision = await toldAgent(terminal, 0);
        await revise(ide, await runOf(ide, revision));
        seen = await terminal.waitFor("confirm (y) or revise (r)? ");
        await terminal.type("y");
        await terminal.waitFor("completed", seen);
        assert.equal(await terminal.exit(), 0, terminal.output);
        const revised = await runOf(ide, revision);
        assert.deepEqual(revised.execution, { source: "cli", agentExecutor: "mcp_client" });
        assert.match(
          await Deno.readTextFile(`${cwd}/${path}`),
          /revision: 2\n[^]*one per report, as a person/,
        );
      } finally {
        for (const terminal of terminals) await terminal.kill();
        await closeClient(ide);
      }
    });
  } finally {
    await installed.remove();
    await Deno.remove(configHome, { recursive: true });
  }
});

/** Waits for the sentence the terminal says to tell the IDE's agent; resolves with the Run it names. */
async function toldAgent(terminal: Terminal, from: number): Promise<string> {
  const sentence = await printedHint(terminal, "tell your IDE's agent: ", from);
  const runId = /^Work on weft Run (run_\S+) with weft's MCP tools: /.exec(sentence)?.[1];
  assert.ok(runId, sentence);
  return runId;
}

/** The text after `label` on the first line that holds it after `from`: a hint as the terminal printed it. */
async function printedHint(terminal: Terminal, label: string, from: number): Promise<string> {
  const start = await terminal.waitFor(label, from);
  const end = await terminal.waitFor("\n", start);
  return terminal.output.slice(start, end).replace(/\s+\(no model of weft's.*$/, "").trim();
}

/** The IDE's agent reads the Run the person named, as `get_run` gives it. */
async function runOf(ide: Client, runId: string): Promise<RunView> {
  return (await call<{ run: RunView }>(ide, "get_run", { runId })).run;
}

/** The IDE's agent's tool calls, as `handOff` makes them. */
function agent(ide: Client): ToolCaller {
  return async (name, args) => {
    const result = await ide.callTool({ name, arguments: args }) as {
      isError?: boolean;
      structuredContent?: unknown;
    };
    return { ok: !result.isError, value: result.structuredContent };
  };
}

/** Claims the Run's call as the IDE's agent does, and returns the owner reference. */
async function claim(ide: Client, run: RunView, claimId: string) {
  assert.equal(run.pendingAgentCall?.phase, "available", JSON.stringify(run));
  const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
  const { ownerToken } = await call<{ ownerToken: string }>(ide, "claim_agent_call", { ...ref, claimId });
  return { ...ref, ownerToken };
}

/** `deliver`'s implement step: the agent writes the task's file with its own editor and says what it did. */
async function implement(ide: Client, projectDir: string, run: RunView): Promise<void> {
  const owner = await claim(ide, run, "implement");
  await Deno.mkdir(`${projectDir}/src`, { recursive: true });
  await Deno.writeTextFile(`${projectDir}/src/csv.ts`, "export const csv = (rows: string[][]) => rows;\n");
  await call(ide, "complete_agent_call", {
    ...owner,
    result: { outcome: "implemented", summary: "Added src/csv.ts." },
  });
}

/** A revision's agent step: it reads the edit in its context and carries it into the specification. */
async function revise(ide: Client, run: RunView): Promise<void> {
  const owner = await claim(ide, run, "revise");
  const { output } = await call<{ output: unknown }>(ide, "call_agent_tool", {
    ...owner,
    toolCallId: "context",
    toolId: "run_context",
    input: {},
  });
  assert.ok(JSON.stringify(output).includes(EDITED_SUMMARY), "the agent sees the person's edit");
  await call(ide, "complete_agent_call", {
    ...owner,
    result: { outcome: "revised", data: { ...SPECIFICATION, summary: EDITED_SUMMARY } },
  });
}
