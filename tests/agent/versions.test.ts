/**
 * Agent steps of a Run keep the definition the Run started with: after its workflow is edited, the task
 * carries the original instructions, Skills, tools and output schema, and assets are read as they were, not
 * from the edited folder. The embedded `intent` of an older weft (a Run stored under another definition of
 * it) still completes.
 */
import assert from "node:assert/strict";
import { Database } from "../../src/store/database.ts";
import { DefinitionStore } from "../../src/store/definition_store.ts";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import { WorkflowRegistry } from "../../src/engine/workflow/registry.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import { WorkflowVersions } from "../../src/engine/workflow/versions.ts";
import { shortVersion } from "../../src/engine/workflow/short_version.ts";
import { EMBEDDED_WORKFLOWS, embeddedSource } from "../../src/workflows/embedded.ts";
import type { ArtifactView, RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { call, closeClient, mcpClient, serve, type ServedProject, tempProject } from "../support/service.ts";
import { workflowFiles } from "../support/workflows.ts";
import { handOff, PLAN, SPECIFICATION, type ToolCaller } from "../support/intent_agent.ts";
import { answer, claim, complete, useTool } from "./support.ts";
import type { Json } from "../support/json.ts";

/** One agent step that reads a Skill asset and saves a draft, then a commit. */
function drafter(outcome: string, toolId: string): Json {
  return {
    name: "drafter",
    title: "Drafter",
    description: "An agent drafts; the draft is committed.",
    entryStage: "write",
    stages: {
      write: {
        state: { schema: { type: "object", properties: { draft: { type: "string" } } }, initial: {} },
        entryStep: "draft",
        steps: {
          draft: {
            kind: "agent",
            agentId: "writer",
            instructions: "writer.md",
            skills: ["style"],
            tools: [{ id: toolId, kind: "submit_state", target: "/draft" }],
            output: {
              schema: {
                type: "object",
                required: ["outcome"],
                properties: { outcome: { enum: [outcome] } },
              },
            },
            routes: { [outcome]: "commit" },
          },
          commit: { kind: "commit", data: "/draft", routes: { committed: { endStage: "done" } } },
        },
        routes: { done: { end: "completed" } },
      },
    },
  };
}

const SKILL = (description: string) => `---\nname: style\ndescription: ${description}\n---\n# Style\n`;

Deno.test("an agent Run of an edited workflow gets its original task and assets", async () => {
  const dir = await tempProject({
    ...workflowFiles(drafter("done", "save")),
    "workflows/drafter/writer.md": "Write the first way.",
    "workflows/drafter/skills/style/SKILL.md": SKILL("House style, first edition"),
    "workflows/drafter/skills/style/guide.md": "guide, first edition",
  });
  const served = await serve(dir);
  const ide = await mcpClient(served, "/mcp");
  try {
    const { run } = await call<{ run: RunView }>(ide, "flow", { flowName: "drafter", intent: "draft it" });
    assert.equal(run.pendingAgentCall?.phase, "available");

    await Deno.writeTextFile(
      `${dir}/workflows/drafter/workflow.json`,
      JSON.stringify(drafter("finished", "store")),
    );
    await Deno.writeTextFile(`${dir}/workflows/drafter/writer.md`, "Write the second way.");
    await Deno.writeTextFile(`${dir}/workflows/drafter/skills/style/SKILL.md`, SKILL("Second edition"));
    await Deno.writeTextFile(`${dir}/workflows/drafter/skills/style/guide.md`, "guide, second edition");
    const { workflows } = await call<{ workflows: { name: string; version?: string }[] }>(
      ide,
      "list_workflows",
    );
    assert.notEqual(workflows.find((w) => w.name === "drafter")!.version, run.version, "the edit is seen");

    const claimed = await claim(ide, run, "agent-1");
    const task = claimed.task as Json;
    assert.equal(task.instructions, "Write the first way.");
    assert.equal(task.skills[0].description, "House style, first edition");
    assert.deepEqual(task.tools.map((tool: { id: string }) => tool.id), ["save"]);
    assert.deepEqual(task.outputSchema.properties.outcome.enum, ["done"]);
    const asset = await call<{ content: string }>(ide, "read_agent_asset", {
      runId: claimed.runId,
      callId: claimed.callId,
      ownerToken: claimed.ownerToken,
      assetId: "style/guide.md",
    });
    assert.equal(asset.content, "guide, first edition");

    await useTool(ide, claimed, "save-1", "save", { value: "a draft" });
    const done = await complete(ide, claimed, { outcome: "done" });
    assert.equal(done.status, "completed", JSON.stringify(done.lastError));
    assert.equal(done.version, run.version);
    const { artifact } = await call<{ artifact: ArtifactView }>(ide, "get_artifact", {
      flowName: "drafter",
      stageName: "write",
    });
    assert.equal(artifact.data, "a draft");
  } finally {
    await closeClient(ide);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Rewrites the store as an older weft would have left it: the Run is pinned to another definition of the
 * embedded `intent`, whose planner instructions say `planner`. Returns that definition's short version.
 */
async function pinToOlderIntent(dir: string, runId: string, planner: string): Promise<string> {
  const current = EMBEDDED_WORKFLOWS.find((source) => source.dirName === "intent")!;
  const texts = Object.fromEntries(
    [...current.files].filter(([path]) => path !== "workflow.json")
      .map(([path, file]) => [path, file.kind === "text" ? file.text : ""]),
  );
  const manifest = structuredClone(current.manifest.ok ? current.manifest.value : {}) as Json;
  manifest.title = "Intent, as an older weft shipped it";
  const older = loadWorkflow(embeddedSource("intent", manifest, { ...texts, "planner.md": planner }));
  assert.ok(older.ok);
  const db = Database.open(`${dir}/.weft/weft.db`);
  try {
    const versions = new WorkflowVersions(new WorkflowRegistry([], projectTree(Deno.realPathSync(dir))));
    const version = await db.transaction(() =>
      versions.pin(new DefinitionStore(db), older.workflow, new Date().toISOString())
    );
    db.run(
      "UPDATE runs SET version = ?, body = json_set(body, '$.version', ?) WHERE id = ?",
      version,
      version,
      runId,
    );
    return shortVersion(version);
  } finally {
    db.close();
  }
}

Deno.test("a Run of the embedded intent stored under an older weft's definition still completes under it", async () => {
  const dir = await tempProject({ "README.md": "# demo\n" });
  let served: ServedProject = await serve(dir);
  let ide: Client = await mcpClient(served, "/mcp");
  let person: Client = await mcpClient(served, "/internal/mcp");
  const sender = (client: () => Client): ToolCaller => async (name, args) => {
    const result = await client().callTool({ name, arguments: args }) as Json;
    return { ok: !result.isError, value: result.structuredContent };
  };
  try {
    let run = (await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "CSV export" })).run;
    const current = run.version;
    run = (await handOff(sender(() => ide), run, {
      stage: "specification",
      document: SPECIFICATION,
      claimId: "spec",
    }) as { run: RunView }).run;
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation", "the specification waits for review");

    await Promise.all([closeClient(ide), closeClient(person)]);
    await served.stop();
    const older = await pinToOlderIntent(dir, run.runId, "Plan it the way an older weft asked.");
    assert.notEqual(older, current);
    served = await serve(dir);
    ide = await mcpClient(served, "/mcp");
    person = await mcpClient(served, "/internal/mcp");

    run = await answer(person, (await call<{ run: RunView }>(person, "get_run", { runId: run.runId })).run, {
      isConfirmed: true,
    });
    assert.equal(run.version, older);
    assert.equal(run.cursor.stageName, "plan");
    const shown = await call<{ agentCall: { task: { instructions: string } } }>(ide, "get_agent_call", {
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
    });
    assert.equal(shown.agentCall.task.instructions, "Plan it the way an older weft asked.");
    run = (await handOff(sender(() => ide), run, { stage: "plan", document: PLAN, claimId: "plan" }) as {
      run: RunView;
    }).run;
    run = await answer(person, run, { isConfirmed: true });
    assert.equal(run.status, "completed", JSON.stringify(run.lastError));
    assert.equal(run.version, older);

    const fresh = (await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "again" })).run;
    assert.equal(fresh.version, current, "a new Run gets this weft's intent");
  } finally {
    await Promise.all([closeClient(ide), closeClient(person)]);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
