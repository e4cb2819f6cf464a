/**
 * A `deliver` review at the terminal (`weft attach` in a pseudo-terminal), as a person judges it: the task
 * with the requirement it serves and its acceptance criterion, what the agent says it did, the verify
 * command's outcome, the files changed, then the diff file by file with line numbers and coloured `+`/`-`
 * lines, a page at a time; no internal field. The retry/skip/stop decision names the task and shows the
 * failing verify's useful lines.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { confirmedPlanOverMcp, deliverProject, implementFilesOverMcp } from "../support/deliver_mcp.ts";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { ESC, Terminal } from "./support.ts";

/** The project's verify: prints and fails with what FAILING holds while it exists. */
const VERIFY = 'if [ -f FAILING ]; then cat FAILING; exit 1; fi; echo "# pass 1"';

/** What a test of a delivery gets: the project, both clients, the deliver Run, and terminals to open. */
interface Delivery {
  dir: string;
  ide: Client;
  person: Client;
  run: RunView;
  /** `weft` in a pseudo-terminal, ended when the test ends. */
  open(args: string[], env?: Record<string, string>): Terminal;
}

/** Serves a project whose IDE's agent started `deliver` over a confirmed three-task plan, for `fn`. */
async function withDelivery(fn: (delivery: Delivery) => Promise<void>): Promise<void> {
  await withServedProject(deliverProject(VERIFY, { "README.md": "# demo\nold line\n" }), async (served) => {
    const dir = served.projectDir;
    const ide = await mcpClient(served, "/mcp");
    const person = await mcpClient(served, "/internal/mcp");
    const terminals: Terminal[] = [];
    try {
      const intent = await confirmedPlanOverMcp({ ide, person });
      const { run } = await call<{ run: RunView }>(ide, "flow", {
        flowName: "deliver",
        intent: intent.runId,
      });
      const open = (args: string[], env: Record<string, string> = {}) => {
        const terminal = new Terminal(args, { cwd: dir, env });
        terminals.push(terminal);
        return terminal;
      };
      await fn({ dir, ide, person, run, open });
    } finally {
      for (const terminal of terminals) await terminal.kill();
      await closeClient(ide);
      await closeClient(person);
    }
  });
}

// deno-lint-ignore no-control-regex -- colour sequences are what it removes
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "").replace(/\r/g, "");

/** A file of `count` numbered lines. */
const numbered = (count: number) =>
  Array.from({ length: count }, (_, i) => `export const n${i + 1} = ${i + 1};\n`)
    .join("");

Deno.test({
  name:
    "review at the terminal: the task, the agent's summary, verify, the files, then a paged per-file diff",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withDelivery(async ({ dir, ide, person, run: started, open }) => {
      let run = started;
      run = await implementFilesOverMcp(ide, run, dir, {
        "src/t1.ts": numbered(30),
        "README.md": "# demo\nnew line\n",
      }, "Added t1 with thirty constants and updated the README.");
      assert.equal(run.pendingAction?.kind, "user_ask_confirmation");

      const terminal = open(["attach", run.runId], { LINES: "20" });
      let seen = await terminal.waitFor("-- line 6 of 39");
      const head = plain(terminal.output);
      assert.match(head, /Review the task's changes/);
      assert.match(head, /Task T1: Task T1\n\s+Implement T1\./);
      assert.match(head, /serves R1: Every report has an Export button\n\s+✓ a test proves it/);
      assert.match(
        head,
        /What the agent says it did:\n\s+Added t1 with thirty constants and updated the README\./,
      );
      assert.match(head, /Verify: passed · exit 0 · .* · sh -c /);
      assert.match(
        head,
        /Files changed \(2\):\n\s+modified\s+README\.md\s+\+1 −1\n\s+added\s+src\/t1\.ts\s+\+30 −0/,
      );
      assert.match(head, /── README\.md · modified · \+1 −1/);
      assert.match(head, /2 {3}│ - old line\n\s*2 │ \+ new line/);
      assert.doesNotMatch(head, /Cut bytes|cutBytes|Please confirm/);
      assert.ok(
        terminal.output.includes(`${ESC}32m+ new line`) && terminal.output.includes(`${ESC}31m- old line`),
        "added lines green, removed ones red",
      );
      assert.doesNotMatch(head, /src\/t1\.ts · added/, "the next file waits for the next page");

      await terminal.type("");
      seen = await terminal.waitFor("── src/t1.ts · added · +30 −0", seen);
      seen = await terminal.waitFor("n15 = 15", seen);
      seen = await terminal.waitFor("-- line 24 of 39", seen);
      await terminal.type("s");
      seen = await terminal.waitFor("more lines not shown", seen);
      seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
      assert.doesNotMatch(plain(terminal.output.slice(seen - 200)), /n30 = 30/);
      await terminal.type("y");
      await terminal.waitFor("answer recorded", seen);
      await terminal.interrupt();
      await terminal.exit();
      const after = (await call<{ run: RunView }>(person, "get_run", { runId: run.runId })).run;
      assert.equal(after.list?.items[0].status, "done");

      // The deliver Run reads as its plan's intent, not as the id it was given.
      const runs = await runWeft(["runs", "--flow", "deliver"], { cwd: dir, env: { NO_COLOR: "1" } });
      assert.match(runs.stdout, new RegExp(`${run.runId} .* three tasks\\s*$`, "m"));
      const shown = await runWeft(["run", run.runId], { cwd: dir, env: { NO_COLOR: "1", COLUMNS: "200" } });
      assert.match(shown.stdout, /title +three tasks\n\s*intent +run_/);
    });
  },
});

Deno.test({
  name: "review at the terminal: 'Verify keeps failing' names the task and shows what failed",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withDelivery(async ({ dir, ide, run: started, open }) => {
      let run = started;
      const failing = "not ok 1 - t1 exports one\n  ---\n  duration_ms: 1.5\n  error: 'expected 1, got 2'\n" +
        "  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n# duration_ms 326.6\n";
      for (let attempt = 1; attempt <= 3; attempt++) {
        run = await implementFilesOverMcp(ide, run, dir, {
          "FAILING": failing,
          "src/t1.ts": "export const t1 = 2;\n",
        }, "tried");
      }
      assert.equal(run.pendingAction?.kind, "user_ask_questions");

      const terminal = open(["attach", run.runId], { NO_COLOR: "1" });
      const seen = await terminal.waitFor("choose 1-3");
      const shown = plain(terminal.output.slice(terminal.output.indexOf("Verify keeps failing")));
      assert.match(shown, /Verify keeps failing\nTask T1: Task T1 \(attempt 3\)/);
      assert.match(shown, /What the agent says it did:\n\s+tried/);
      assert.match(shown, /Verify: failed · exit 1 · /);
      assert.match(shown, /not ok 1 - t1 exports one\n\s+error: 'expected 1, got 2'/);
      assert.match(shown, /# fail 1/);
      assert.doesNotMatch(shown, /duration_ms/);
      await terminal.type("3");
      await terminal.waitFor("answer recorded", seen);
      await terminal.interrupt();
      await terminal.exit();
    });
  },
});
