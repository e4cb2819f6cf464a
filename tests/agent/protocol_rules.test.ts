/**
 * The rules of the agent-task protocol at its edges, against one real `weft serve`: concurrent claimants and
 * tool calls, the receipt cap, assets, cancellation, failure, secrecy and the internal endpoint.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import {
  call,
  callError,
  closeClient,
  mcpClient,
  serve,
  type ServedProject,
  tempProject,
} from "../support/service.ts";
import { claim, type Claimed, complete, ownerRef, toolError, useTool } from "./support.ts";

const MIB = 1024 * 1024;

/** A project workflow whose one agent step declares a Skill with assets of every interesting size. */
const ASSETS_WORKFLOW = {
  name: "assets",
  title: "Assets",
  description: "One agent step that reads skill assets.",
  entryStage: "read",
  stages: {
    read: {
      state: { schema: { type: "object" }, initial: {} },
      entryStep: "agent",
      steps: {
        agent: {
          kind: "agent",
          agentId: "reader",
          instructions: "reader.md",
          skills: ["kit"],
          tools: [{ id: "context", kind: "run_context" }],
          output: {
            schema: {
              type: "object",
              required: ["outcome"],
              properties: { outcome: { enum: ["done"] } },
            },
          },
          routes: { done: { endStage: "done" } },
        },
      },
      routes: { done: { end: "completed" } },
    },
  },
};

function projectFiles(): Record<string, string> {
  return {
    "README.md": "# demo\n",
    "workflows/assets/workflow.json": JSON.stringify(ASSETS_WORKFLOW),
    "workflows/assets/reader.md": "Read the assets.\n",
    "workflows/assets/skills/kit/SKILL.md":
      "---\nname: kit\ndescription: Test assets\n---\nUse the assets.\n",
    "workflows/assets/skills/kit/notes.md": "small notes\n",
    "workflows/assets/skills/kit/exact.txt": "x".repeat(MIB),
    "workflows/assets/skills/kit/grows.txt": "small for now\n",
  };
}

async function start(client: Client, flowName: string): Promise<RunView> {
  return (await call<{ run: RunView }>(client, "flow", { flowName, intent: "exercise the protocol" })).run;
}

async function getRun(client: Client, runId: string): Promise<RunView> {
  return (await call<{ run: RunView }>(client, "get_run", { runId })).run;
}

Deno.test("agent-task protocol rules on a real service", async (t) => {
  const projectDir = await tempProject(projectFiles());
  await Deno.writeFile(
    `${projectDir}/workflows/assets/skills/kit/logo.bin`,
    new Uint8Array([0xff, 0xfe, 0x00, 1]),
  );
  let served: ServedProject | undefined;
  const clients: Client[] = [];
  try {
    served = await serve(projectDir);
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp"]) clients.push(await mcpClient(served, path));
    const [ide, codex, person] = clients;

    await t.step("only the external endpoints offer the six tools", async () => {
      const six = [
        "get_agent_call",
        "claim_agent_call",
        "call_agent_tool",
        "read_agent_asset",
        "complete_agent_call",
        "fail_agent_call",
      ];
      const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual((await names(ide)).filter((name) => six.includes(name)), six);
      assert.deepEqual((await names(codex)).filter((name) => six.includes(name)), six);
      assert.deepEqual((await names(person)).filter((name) => six.includes(name)), []);
      const unknown = await callError(person, "get_agent_call", { runId: "run_x", callId: "call_x" });
      assert.equal(unknown.code, "INVALID_REQUEST");
      assert.match(unknown.message, /Unknown tool/);
    });

    await t.step("concurrent claimants: exactly one wins, the others get CONFLICT", async () => {
      const run = await start(ide, "intent");
      const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
      const attempts = await Promise.all(
        ["a", "b", "c", "d"].map((claimId, index) =>
          [ide, codex][index % 2].callTool({ name: "claim_agent_call", arguments: { ...ref, claimId } })
        ),
      );
      const winners = attempts.filter((result) => !result.isError);
      assert.equal(winners.length, 1);
      for (const loser of attempts.filter((result) => result.isError)) {
        const text = (loser.content as { text: string }[])[0].text;
        assert.equal(JSON.parse(text).error.code, "CONFLICT");
      }
      await call(person, "cancel_run", { runId: run.runId });
    });

    // BUSY itself needs a call still running, which these synchronous tool kinds never leave: it is proven
    // against the receipt book in tests/mcp/receipts.test.ts.
    await t.step("tool calls sent at once from two sessions each run once and keep one receipt", async () => {
      const run = await start(ide, "intent");
      const claimed = await claim(ide, run, "agent-busy");
      const ids = ["c1", "c2", "c3"];
      const results = await Promise.all(ids.map((toolCallId, index) =>
        [ide, codex][index % 2].callTool({
          name: "call_agent_tool",
          arguments: { ...ownerRef(claimed), toolCallId, toolId: "get_context", input: {} },
        })
      ));
      for (const [index, result] of results.entries()) {
        assert.ok(!result.isError, `${ids[index]}: ${JSON.stringify(result.content)}`);
      }
      const { agentCall } = await call<{ agentCall: { receipts: { toolCallId: string; status: string }[] } }>(
        codex,
        "get_agent_call",
        { runId: claimed.runId, callId: claimed.callId },
      );
      assert.deepEqual(agentCall.receipts.map((receipt) => receipt.status), [
        "succeeded",
        "succeeded",
        "succeeded",
      ]);
      assert.deepEqual(agentCall.receipts.map((receipt) => receipt.toolCallId).sort(), ids);
      await call(person, "cancel_run", { runId: run.runId });
    });

    await t.step("the 257th receipt is BUSY with advice; replays and completion still work", async () => {
      const run = await start(ide, "assets");
      const claimed = await claim(ide, run, "agent-many");
      for (let i = 0; i < 256; i++) await useTool(i % 2 ? ide : codex, claimed, `r${i}`, "context");
      const full = await toolError(ide, claimed, "r256", "context");
      assert.equal(full.code, "BUSY");
      assert.equal(full.retryable, true);
      assert.match(full.message, /complete_agent_call/);
      assert.equal((await useTool<{ runId: string }>(ide, claimed, "r7", "context")).runId, run.runId);
      const undeclared = await toolError(ide, claimed, "r0", "read_file");
      assert.equal(undeclared.code, "INVALID_REQUEST");
      assert.equal((await complete(codex, claimed, { outcome: "done" })).status, "completed");
    });

    await t.step(
      "assets: declared ids only, 1 MiB per read, utf8 or base64, as stored with the Run",
      async () => {
        const run = await start(codex, "assets");
        const claimed = await claim(codex, run, "agent-assets");
        assert.deepEqual(
          claimed.task.skills[0].assets.map((asset) => asset.id).sort(),
          ["kit/exact.txt", "kit/grows.txt", "kit/logo.bin", "kit/notes.md"],
        );
        const read = (assetId: string) =>
          call<Asset>(codex, "read_agent_asset", { ...ownerRef(claimed), assetId });
        const readError = (assetId: string) =>
          callError(ide, "read_agent_asset", { ...ownerRef(claimed), assetId });
        assert.deepEqual(await read("kit/notes.md"), {
          assetId: "kit/notes.md",
          name: "notes.md",
          encoding: "utf8",
          content: "small notes\n",
        });
        assert.equal((await read("kit/exact.txt")).content.length, MIB);
        assert.deepEqual(await read("kit/logo.bin"), {
          assetId: "kit/logo.bin",
          name: "logo.bin",
          encoding: "base64",
          content: "//4AAQ==",
        });
        for (
          const path of [`${projectDir}/README.md`, "../../README.md", "skills/kit/notes.md", "kit/SKILL.md"]
        ) {
          const refused = await readError(path);
          assert.equal(refused.code, "INVALID_REQUEST");
          assert.ok(!refused.message.includes(projectDir));
        }
        // The Run reads its assets as its version stored them; an asset grown past 1 MiB makes the workflow
        // unavailable for new Runs.
        await Deno.writeTextFile(`${projectDir}/workflows/assets/skills/kit/grows.txt`, "y".repeat(MIB + 1));
        assert.equal((await read("kit/grows.txt")).content, "small for now\n");
        const tooBig = await callError(codex, "flow", { flowName: "assets", intent: "again" });
        assert.equal(tooBig.code, "INVALID_REQUEST");
        assert.match(tooBig.message, /1 MiB/);
        await call(person, "cancel_run", { runId: run.runId });
      },
    );

    await t.step(
      "cancel ends ownership: late completion and tools get CONFLICT and change nothing",
      async () => {
        const run = await start(ide, "intent");
        const claimed = await claim(ide, run, "agent-late");
        await useTool(ide, claimed, "ctx", "get_context");
        const cancelled = (await call<{ run: RunView }>(person, "cancel_run", { runId: run.runId })).run;
        assert.equal(cancelled.status, "cancelled");
        const late = await callError(codex, "complete_agent_call", {
          ...ownerRef(claimed),
          result: { outcome: "ready" },
        });
        assert.equal(late.code, "CONFLICT");
        assert.equal((await toolError(ide, claimed, "ctx", "get_context")).code, "CONFLICT");
        assert.equal(
          (await callError(ide, "fail_agent_call", { ...ownerRef(claimed), message: "late" })).code,
          "CONFLICT",
        );
        const reclaim = await callError(ide, "claim_agent_call", {
          runId: claimed.runId,
          callId: claimed.callId,
          claimId: "agent-late",
        });
        assert.equal(reclaim.code, "CONFLICT");
        assert.deepEqual(await getRun(person, run.runId), cancelled);
      },
    );

    await t.step("fail_agent_call fails the Run with the message; retries get the same Run", async () => {
      const run = await start(codex, "intent");
      const claimed = await claim(codex, run, "agent-fail");
      const tooLong = await callError(codex, "fail_agent_call", {
        ...ownerRef(claimed),
        message: "x".repeat(4097),
      });
      assert.equal(tooLong.code, "INVALID_REQUEST");
      const args = { ...ownerRef(claimed), message: "the intent is not a software change" };
      const failed = (await call<{ run: RunView }>(codex, "fail_agent_call", args)).run;
      assert.equal(failed.status, "failed");
      assert.deepEqual(failed.lastError, {
        code: "AGENT_CALL_FAILED",
        message: "the intent is not a software change",
        retryable: false,
      });
      assert.deepEqual((await call<{ run: RunView }>(ide, "fail_agent_call", args)).run, failed);
      const unknownCall = await callError(ide, "get_agent_call", {
        runId: run.runId,
        callId: "call_unknown",
      });
      assert.equal(unknownCall.code, "NOT_FOUND");
    });

    await t.step("tasks, views and errors never carry a machine path or a token", async () => {
      const run = await start(ide, "intent");
      const claimed: Claimed = await claim(ide, run, "agent-secret");
      const ref = { runId: claimed.runId, callId: claimed.callId };
      const shown = await call(codex, "get_agent_call", ref);
      const stranger = await callError(codex, "call_agent_tool", {
        ...ref,
        ownerToken: served!.connection.externalToken,
        toolCallId: "steal",
        toolId: "get_context",
        input: {},
      });
      assert.equal(stranger.code, "CONFLICT");
      const payloads = JSON.stringify([claimed.task, shown, stranger]);
      const realDir = await Deno.realPath(projectDir);
      for (
        const secret of [
          projectDir,
          realDir,
          served!.connection.externalToken,
          served!.connection.internalToken,
        ]
      ) {
        assert.ok(!payloads.includes(secret));
      }
      assert.ok(!JSON.stringify([claimed.task, shown, stranger]).includes(claimed.ownerToken));
      assert.ok(!JSON.stringify(shown).includes("agent-secret"));
      await call(person, "cancel_run", { runId: run.runId });
      for await (const entry of Deno.readDir(`${projectDir}/.weft/logs`)) {
        const log = await Deno.readTextFile(`${projectDir}/.weft/logs/${entry.name}`);
        assert.ok(!log.includes(claimed.ownerToken));
      }
    });
  } finally {
    await Promise.all(clients.map(closeClient));
    await served?.stop();
    await Deno.remove(projectDir, { recursive: true });
  }
});

interface Asset {
  assetId: string;
  name: string;
  encoding: string;
  content: string;
}
