/**
 * The agent side of the security matrix: owner tokens do not travel between tasks, agent tools never read
 * outside the project or into `.git`, `.weft`, `.env*`, assets are read by declared id only; and no tool
 * result, error or log line ever holds a bearer token, an owner token or the project's absolute path.
 */

import assert from "node:assert/strict";
import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { closeClient, mcpClient, serve, type ServedProject } from "../support/service.ts";
import { proofProject } from "../proof/support.ts";
import { leaks, machinePaths, type Outcome, tool } from "../proof/probe.ts";

/** The content of the file outside the project: it must never come back. */
const MARKER = "OUTSIDE-MARKER-7f3a";

/** Every tool answer of a test, kept for the leak search at the end. */
type Transcript = Outcome[];

async function claimIntent(client: Client, seen: Transcript, claimId: string) {
  const started = await tool<{ run: RunView }>(client, "flow", { flowName: "intent", intent: "security" });
  seen.push(started);
  assert.ok(started.ok, started.text);
  const run = started.value.run;
  const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
  const claimed = await tool<{ ownerToken: string }>(client, "claim_agent_call", { ...ref, claimId });
  seen.push(claimed);
  assert.ok(claimed.ok, claimed.text);
  return { ...ref, ownerToken: claimed.value.ownerToken };
}

async function withService(test: (served: ServedProject, client: Client, seen: Transcript) => Promise<void>) {
  const dir = await proofProject();
  const outside = await Deno.makeTempDir({ prefix: "weft-outside-" });
  await Deno.writeTextFile(`${outside}/secret.txt`, `${MARKER}\n`);
  await Deno.symlink(`${outside}/secret.txt`, `${dir}/link-out.txt`);
  await Deno.symlink(outside, `${dir}/dir-out`);
  await Deno.symlink(`${dir}/.env`, `${dir}/env-alias`);
  const served = await serve(dir);
  const client = await mcpClient(served, "/mcp");
  const seen: Transcript = [];
  try {
    await test(served, client, seen);
    const secrets = {
      tokens: [served.connection.externalToken, served.connection.internalToken],
      paths: [...machinePaths(dir), outside],
    };
    const owners = seen.flatMap((o) =>
      o.ok && typeof o.value.ownerToken === "string" ? [o.value.ownerToken] : []
    );
    for (const outcome of seen) {
      // An owner token legitimately appears in the claim that issued it, nowhere else.
      const otherTokens = owners.filter((token) => !(outcome.ok && outcome.value.ownerToken === token));
      const found = leaks(outcome.text, {
        tokens: [...secrets.tokens, ...otherTokens],
        paths: secrets.paths,
      });
      assert.deepEqual(found, [], outcome.text);
    }
    await closeClient(client);
    await served.stop();
    for await (const entry of Deno.readDir(`${dir}/.weft/logs`)) {
      const log = await Deno.readTextFile(`${dir}/.weft/logs/${entry.name}`);
      assert.deepEqual(
        leaks(log, { tokens: [...secrets.tokens, ...owners], paths: secrets.paths }),
        [],
        entry.name,
      );
      assert.doesNotMatch(
        log,
        /os error \d+|No such file|Permission denied|Too many/,
        "no raw OS error text",
      );
      assert.ok(!log.includes(MARKER), "no file content in the log");
    }
  } finally {
    await closeClient(client).catch(() => {});
    await served.stop().catch(() => {});
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
}

Deno.test("an owner token of one task is CONFLICT on another task, for every owner tool", async () => {
  await withService(async (_served, client, seen) => {
    const first = await claimIntent(client, seen, "agent-a");
    const second = await claimIntent(client, seen, "agent-b");
    const swapped = { runId: second.runId, callId: second.callId, ownerToken: first.ownerToken };
    const crossed = { runId: first.runId, callId: second.callId, ownerToken: second.ownerToken };
    for (const ref of [swapped, crossed]) {
      const calls: [string, Record<string, unknown>][] = [
        ["call_agent_tool", { ...ref, toolCallId: "t1", toolId: "get_context", input: {} }],
        ["read_agent_asset", { ...ref, assetId: "specification-writing/template.md" }],
        ["complete_agent_call", { ...ref, result: { outcome: "ready" } }],
        ["fail_agent_call", { ...ref, message: "not mine" }],
      ];
      for (const [name, args] of calls) {
        const outcome = await tool(client, name, args);
        seen.push(outcome);
        assert.ok(!outcome.ok, `${name} with a foreign owner token succeeded`);
        assert.ok(["CONFLICT", "NOT_FOUND"].includes(outcome.error.code), `${name}: ${outcome.text}`);
        if (ref === swapped) assert.equal(outcome.error.code, "CONFLICT", `${name}: ${outcome.text}`);
      }
    }
    // Both tasks are intact for their real owners.
    for (const owner of [first, second]) {
      const ok = await tool(client, "call_agent_tool", {
        ...owner,
        toolCallId: "t1",
        toolId: "get_context",
        input: {},
      });
      seen.push(ok);
      assert.ok(ok.ok, ok.text);
    }
  });
});

Deno.test("agent tools refuse `..`, absolute paths, symlinks out, .git, .weft and .env*; assets by declared id only", async () => {
  await withService(async (served, client, seen) => {
    const owner = await claimIntent(client, seen, "agent-paths");
    let n = 0;
    const use = async (toolId: string, input: Record<string, unknown>) => {
      const outcome = await tool(client, "call_agent_tool", {
        ...owner,
        toolCallId: `p${n++}`,
        toolId,
        input,
      });
      seen.push(outcome);
      return outcome;
    };
    const abs = served.projectDir;
    // Each refusal for its own reason: an absolute path refused only as "no such file" would prove nothing.
    const DOTS = /must not contain `\.\.`/;
    const ABSOLUTE = /relative to the project, not absolute/;
    // Links are never followed, wherever they lead: what was checked is what is read.
    const LINK = /symbolic link/;
    const OFF_LIMITS = /\.git, \.weft and \.env\* are off limits/;
    const refusedReads: [string, RegExp][] = [
      ["../secret.txt", DOTS],
      ["src/../../secret.txt", DOTS],
      ["/etc/passwd", ABSOLUTE],
      [`${abs}/README.md`, ABSOLUTE],
      ["C:\\Windows\\win.ini", ABSOLUTE],
      ["\\\\server\\share", ABSOLUTE],
      ["link-out.txt", LINK],
      ["dir-out/secret.txt", LINK],
      ["env-alias", LINK],
      [".git/config", OFF_LIMITS],
      ["./.git/config", OFF_LIMITS],
      ["src/../.git/config", DOTS],
      [".weft/connection.json", OFF_LIMITS],
      [".weft/weft.db", OFF_LIMITS],
      [".env", OFF_LIMITS],
      [".env.local", OFF_LIMITS],
      ["README.md\u0000.env", /NUL/],
    ];
    for (const [path, reason] of refusedReads) {
      const outcome = await use("read_file", { path });
      assert.ok(!outcome.ok, `read_file ${JSON.stringify(path)} succeeded: ${outcome.text}`);
      assert.equal(
        outcome.error.code,
        "INVALID_REQUEST",
        `read_file ${JSON.stringify(path)}: ${outcome.text}`,
      );
      assert.match(outcome.error.message, reason, `read_file ${JSON.stringify(path)}`);
      assert.ok(!outcome.text.includes(MARKER) && !outcome.text.includes("SECRET="), outcome.text);
    }
    const refusedLists: [string, RegExp][] = [
      ["..", DOTS],
      ["/", ABSOLUTE],
      [abs, ABSOLUTE],
      [".git", OFF_LIMITS],
      [".weft", OFF_LIMITS],
      ["dir-out", LINK],
      ["src/../..", DOTS],
    ];
    for (const [dir, reason] of refusedLists) {
      const outcome = await use("list_files", { dir });
      assert.ok(!outcome.ok, `list_files ${dir} succeeded: ${outcome.text}`);
      assert.equal(outcome.error.code, "INVALID_REQUEST", `list_files ${dir}: ${outcome.text}`);
      assert.match(outcome.error.message, reason, `list_files ${dir}`);
    }
    const listed = await use("list_files", {});
    assert.ok(listed.ok, listed.text);
    const files = (listed.value.output as { files: string[] }).files;
    assert.ok(files.includes("README.md") && files.includes("src/app.ts"));
    for (const file of files) {
      assert.ok(!/(^|\/)(\.git|\.weft|\.env)/.test(file) && !file.startsWith("link-out"), `listed ${file}`);
    }
    const read = await use("read_file", { path: "src/app.ts" });
    assert.ok(read.ok, read.text);
    for (
      const assetId of [
        "../workflow.json",
        "specification-writing/../../workflow.json",
        "/etc/passwd",
        `${abs}/README.md`,
        "specification-writing/SKILL.md/../template.md",
        "implementation-planning/plan-template.md",
        "README.md",
      ]
    ) {
      const outcome = await tool(client, "read_agent_asset", { ...owner, assetId });
      seen.push(outcome);
      assert.ok(!outcome.ok, `read_agent_asset ${assetId} succeeded`);
    }
    const declared = await tool(client, "read_agent_asset", {
      ...owner,
      assetId: "specification-writing/template.md",
    });
    seen.push(declared);
    assert.ok(declared.ok, declared.text);
    for (const name of ["status", "list_workflows", "list_runs", "list_artifacts"]) {
      seen.push(await tool(client, name, {}));
    }
    seen.push(await tool(client, "get_agent_call", { runId: owner.runId, callId: owner.callId }));
    seen.push(await tool(client, "get_run", { runId: owner.runId, timeline: true }));
  });
});

Deno.test("file swaps during agent reads never lead outside or into .weft, and never stall the service", async () => {
  await withService(async (served, client, seen) => {
    const owner = await claimIntent(client, seen, "agent-race");
    const dir = served.projectDir;
    await Deno.writeTextFile(`${dir}/swap.txt`, "inside");
    await Deno.writeTextFile(`${dir}/.ENV`, "SECRET=do-not-read");
    await Deno.link(`${dir}/.env`, `${dir}/env-hardlink.txt`);
    await Deno.writeFile(`${dir}/huge.txt`, new Uint8Array(8 * 1024 * 1024).fill(97));
    const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/pipe.txt`] }).output();
    assert.ok(fifo.success, "mkfifo is needed for this test");
    const swapper = new Deno.Command("sh", {
      args: [
        "-c",
        `
        cd "$1"
        cp swap.txt swap.keep
        while :; do
          ln -sfn .weft/connection.json swap.tmp; mv -T swap.tmp swap.txt
          ln -sfn huge.txt swap.tmp; mv -T swap.tmp swap.txt
          mkfifo swap.tmp 2>/dev/null; mv -T swap.tmp swap.txt
          cp swap.keep swap.tmp; mv -T swap.tmp swap.txt
        done`,
        "sh",
        dir,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      let n = 0;
      for (let round = 0; round < 12; round++) {
        // A task's tools run one at a time, so the reads are sequential; the swapper is another process.
        for (let i = 0; i < 18; i++) {
          const path = ["swap.txt", "pipe.txt", "huge.txt", ".ENV", "env-hardlink.txt", "swap.txt"][i % 6];
          const outcome = await tool(client, "call_agent_tool", {
            ...owner,
            toolCallId: `race-${n++}`,
            toolId: "read_file",
            input: { path },
          });
          seen.push(outcome);
          assert.ok(!outcome.text.includes("SECRET="), outcome.text);
          assert.ok(!outcome.text.includes(served.connection.internalToken), "a read returned .weft content");
          if (outcome.ok) assert.equal((outcome.value.output as { content: string }).content, "inside");
          else assert.ok(["INVALID_REQUEST", "TOOL_FAILED"].includes(outcome.error.code), outcome.text);
        }
        // The service keeps answering between the rounds: no read ever waits on a FIFO or a huge file.
        const status = await tool(client, "status", {});
        assert.ok(status.ok, status.text);
      }
    } finally {
      swapper.kill("SIGKILL");
      await swapper.status;
    }
  });
});
