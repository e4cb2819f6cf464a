import assert from "node:assert/strict";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import { renderManifestSchema } from "../build/workflow_schema.ts";
import { EMBEDDED_WORKFLOWS, embeddedSource } from "../../src/workflows/embedded.ts";
import { openEngine, openEngineOnDisk } from "./support.ts";
import { tempProject } from "../support/service.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { reviewManifest } from "../support/workflows.ts";
import type { Json } from "../support/json.ts";

const agentStep = {
  kind: "agent",
  agentId: "writer",
  instructions: "writer.md",
  tools: [{ id: "save", kind: "submit_state", target: "/draft" }],
  output: { schema: { type: "object", required: ["outcome"], properties: { outcome: { enum: ["done"] } } } },
  routes: { done: "commit" },
};

// Manifests are edited freely here to provoke each loader error.

/** The review fixture with `edit` applied to its stage, loaded from memory with the given extra files. */
function reasonFor(edit: (stage: Record<string, Json>) => void, files: Record<string, string> = {}): string {
  const manifest = structuredClone(reviewManifest()) as Record<string, Json>;
  edit(manifest.stages.collect);
  const entry = loadWorkflow(embeddedSource("review", manifest, files));
  assert.equal(entry.ok, false, "expected a loader error");
  return entry.ok ? "" : entry.reason;
}

Deno.test("the embedded workflows load, and pass every check they skip at start-up", () => {
  for (const source of EMBEDDED_WORKFLOWS) {
    assert.equal(source.prechecked, true);
    assert.equal(loadWorkflow(source).ok, true);
    const full = loadWorkflow({ ...source, prechecked: false });
    assert.ok(full.ok, full.ok ? "" : full.reason);
  }
});

Deno.test("the committed manifest JSON Schema equals the generated one", () => {
  const committed = Deno.readTextFileSync(new URL("../../schema/workflow.schema.json", import.meta.url));
  assert.equal(
    committed,
    renderManifestSchema(),
    "schema/workflow.schema.json is out of date with the manifest: run `deno task schema` and commit the result",
  );
});

Deno.test("loader errors name the file and the JSON pointer", () => {
  const file = "embedded/review/workflow.json";
  const cases: [string, (stage: Record<string, Json>) => void, Record<string, string>?][] = [
    [`${file}#/stages/collect/steps/ask/colour: unknown field`, (s) => (s.steps.ask.colour = 1)],
    [`${file}#/stages/collect/entryStep: no step "nope"`, (s) => (s.entryStep = "nope")],
    [
      `${file}#/stages/collect/steps/check/routes/valid: no step "gone"`,
      (s) => (s.steps.check.routes.valid = "gone"),
    ],
    [
      `${file}#/stages/collect/steps/confirm/routes: outcome "revise" has no route`,
      (s) => delete s.steps.confirm.routes.revise,
    ],
    [
      `${file}#/stages/collect/steps/commit/routes/oops: "oops" is not an outcome`,
      (s) => (s.steps.commit.routes.oops = "ask"),
    ],
    [
      `${file}#/stages/collect/routes: stage outcome "other" has no route`,
      (s) => (s.steps.commit.routes.committed = { endStage: "other" }),
    ],
    [
      `${file}#/stages/collect/routes/never: no step ends the stage with "never"`,
      (s) => (s.routes.never = { end: "completed" }),
    ],
    [
      `${file}#/stages/collect/steps/orphan: unreachable from the entry`,
      (s) => (s.steps.orphan = { kind: "commit", data: "", routes: { committed: "ask" } }),
    ],
    [
      `${file}#/stages/collect/steps/confirm/context: must be a JSON pointer`,
      (s) => (s.steps.confirm.context = "answers"),
    ],
    [`${file}#/stages/collect/steps/ask: needs exactly one of`, (s) => (s.steps.ask.questionsFrom = "/q")],
    [
      `${file}#/stages/collect/steps/confirm: needs \`context\`, \`evidence\` or both`,
      (s) => delete s.steps.confirm.context,
    ],
    [
      `${file}#/stages/collect/steps/ask/questions/1: duplicate question id "title"`,
      (s) => (s.steps.ask.questions[1].id = "title"),
    ],
    [
      `${file}#/stages/collect/state/initial: does not match the state schema`,
      (s) => (s.state.initial = { feedback: 3 }),
    ],
    [`${file}#/stages/collect/steps/ask/budget/maxVisits`, (s) => (s.steps.ask.budget.maxVisits = 0)],
    [
      `${file}#/stages/collect/steps/check/rules/1/covers/stage: no stage "spec"`,
      (s) => s.steps.check.rules.push({ at: "/answers", covers: { stage: "spec", items: "/r", by: "/r" } }),
    ],
    [`${file}#/stages/collect/steps/draft/instructions: embedded/review/writer.md: missing`, (s) => {
      s.entryStep = "draft";
      s.steps.draft = { ...agentStep, routes: { done: "ask" } };
    }],
    [`${file}#/stages/collect/steps/draft/output/schema: must declare properties.outcome`, (s) => {
      s.entryStep = "draft";
      s.steps.draft = { ...agentStep, output: { schema: { type: "object" } }, routes: { done: "ask" } };
    }, { "writer.md": "# w" }],
    [`${file}#/stages/collect/steps/draft/routes: outcome "done" has no route`, (s) => {
      s.entryStep = "draft";
      s.steps.draft = { ...agentStep, routes: {} };
      s.steps.ask.routes.answered = "draft";
    }, { "writer.md": "# w" }],
    [`${file}#/stages/collect/steps/draft/tools/0: a submit_state tool needs a \`target\``, (s) => {
      s.entryStep = "draft";
      s.steps.draft = {
        ...agentStep,
        tools: [{ id: "save", kind: "submit_state" }],
        routes: { done: "ask" },
      };
    }, { "writer.md": "# w" }],
    [`embedded/review/skills/style/SKILL.md: missing`, (s) => {
      s.entryStep = "draft";
      s.steps.draft = { ...agentStep, skills: ["style"], routes: { done: "ask" } };
    }, { "writer.md": "# w" }],
    [`embedded/review/skills/style/SKILL.md: front matter needs a non-empty description`, (s) => {
      s.entryStep = "draft";
      s.steps.draft = { ...agentStep, skills: ["style"], routes: { done: "ask" } };
    }, { "writer.md": "# w", "skills/style/SKILL.md": "---\nname: style\n---\nbody" }],
  ];
  for (const [expected, edit, files] of cases) {
    const reason = reasonFor(edit, files);
    assert.ok(reason.includes(expected), `expected "${expected}" in:\n${reason}`);
    assert.doesNotMatch(reason, /\/tmp\/|\/work\//);
  }
  const badName = loadWorkflow(embeddedSource("other", reviewManifest(), {}));
  assert.ok(
    !badName.ok &&
      badName.reason.includes(`${"embedded/other/workflow.json"}#/name: must equal the folder name`),
  );
});

Deno.test("schema problems are said in the loader's own words, never in zod's", () => {
  const file = "embedded/review/workflow.json";
  const steps = `${file}#/stages/collect/steps`;
  const cases: [string, (stage: Record<string, Json>) => void][] = [
    [
      `${steps}/commit/kind: unknown step kind \`agnt\`; one of agent, ask, confirm, check, commit`,
      (s) => (s.steps.commit.kind = "agnt"),
    ],
    [
      `${steps}/commit/kind: missing; the step kind is one of agent, ask, confirm, check, commit`,
      (s) => delete s.steps.commit.kind,
    ],
    [
      `${steps}/ask/questions/0/question: missing; a string is required`,
      (s) => delete s.steps.ask.questions[0].question,
    ],
    [`${steps}/ask/questions/0/isSkippable: must be a boolean, not a string`, (s) => {
      s.steps.ask.questions[0].isSkippable = "yes";
    }],
    [`${steps}/ask/questions: needs at least 1 item`, (s) => (s.steps.ask.questions = [])],
    [`${steps}/ask/questions/0/question: must not be empty`, (s) => (s.steps.ask.questions[0].question = "")],
    [`${steps}/ask/budget/maxVisits: must be at least 1`, (s) => (s.steps.ask.budget = { maxVisits: 0 })],
    [
      `${steps}/commit/routes/committed: a step route is the name of a step, { "endStage": "<stage outcome>" }, ` +
      'or in a list stage { "endItem": "done" | "skipped" | "failed" | "stopped" }',
      (s) => (s.steps.commit.routes.committed = { end: "completed" }),
    ],
    [
      `${steps}/Bad Step: the name must be a lowercase identifier`,
      (s) => (s.steps["Bad Step"] = s.steps.commit),
    ],
  ];
  for (const [expected, edit] of cases) {
    const reason = reasonFor(edit);
    assert.ok(reason.includes(expected), `expected "${expected}" in:\n${reason}`);
    assert.doesNotMatch(reason, /Invalid input|Invalid discriminator|Too small|expected string, received/);
  }
});

Deno.test("a workflow.json placed directly in workflows/ is reported, not ignored", async () => {
  const project = new MemoryProject({
    "workflows/workflow.json": JSON.stringify(reviewManifest({ name: "demo" })),
    "workflows/workflow.schema.json": "{}",
    "workflows/weft.schema.json": "{}",
  });
  const engine = await openEngine({ project });
  try {
    // Schemas beside the folders (`weft init` writes one where the scaffolded $schema points) are no
    // stray manifests.
    const listed = (await engine.listWorkflows("service")).filter((view) => view.source === "project");
    assert.equal(listed.length, 1, JSON.stringify(listed));
    const [stray] = listed;
    assert.equal(stray?.available, false);
    assert.equal(
      stray?.reason,
      "workflows/workflow.json: a workflow lives in a folder of its own; move this file to " +
        "workflows/<name>/workflow.json, where <name> is the workflow's name",
    );
  } finally {
    await engine.close();
  }
});

Deno.test("project workflows load beside embedded ones; broken and clashing ones are unavailable", async () => {
  const project = new MemoryProject({
    "workflows/demo/workflow.json": JSON.stringify(reviewManifest({ name: "demo" })),
    "workflows/broken/workflow.json": "{ not json",
    "workflows/intent/workflow.json": JSON.stringify(reviewManifest({ name: "intent" })),
    "workflows/empty/readme.md": "no manifest",
  });
  const engine = await openEngine({ project });
  try {
    const views = await engine.listWorkflows("service");
    const byName = (name: string, source: string) =>
      views.find((v) => v.name === name && v.source === source)!;
    assert.equal(byName("demo", "project").available, true);
    assert.match(byName("broken", "project").reason!, /^workflows\/broken\/workflow.json: not valid JSON/);
    assert.match(byName("empty", "project").reason!, /workflows\/empty\/workflow.json: missing/);
    assert.match(byName("intent", "project").reason!, /belongs to an embedded workflow/);
    assert.equal(byName("intent", "embedded").available, true);
    assert.equal(
      (await engine.startRun({ flowName: "demo", intent: "x", source: "cli", agentExecutor: "service" }))
        .status,
      "waiting",
    );
    assert.deepEqual((await engine.stats()).workflows, { available: 4, unavailable: 3 });
    project.put("workflows/broken/workflow.json", JSON.stringify(reviewManifest({ name: "broken" })));
    project.put("workflows/later/workflow.json", JSON.stringify(reviewManifest({ name: "later" })));
    // Edits and new folders are picked up by the next listing or flow, without a restart.
    assert.equal((await engine.listWorkflows("service")).find((v) => v.name === "broken")!.available, true);
    assert.equal(
      (await engine.startRun({ flowName: "later", intent: "x", source: "cli", agentExecutor: "service" }))
        .status,
      "waiting",
    );
  } finally {
    await engine.close();
  }
});

Deno.test("project skill assets are read by id from the Run's version, never from the folder as it is now", async () => {
  const manifest = reviewManifest({ name: "assets" }) as Record<string, Json>;
  const stage = manifest.stages.collect;
  stage.entryStep = "draft";
  stage.steps.draft = { ...agentStep, skills: ["style"], routes: { done: "ask" } };
  const project = await tempProject({
    "workflows/assets/workflow.json": JSON.stringify(manifest),
    "workflows/assets/writer.md": "# Writer",
    "workflows/assets/skills/style/SKILL.md": "---\nname: style\ndescription: House style\n---\n# Style",
    "workflows/assets/skills/style/guide.md": "be brief",
  });
  try {
    Deno.writeFileSync(`${project}/workflows/assets/skills/style/logo.bin`, new Uint8Array([0xff, 0xfe, 0]));
    const engine = await openEngineOnDisk({ projectDir: project });
    const run = await engine.startRun({
      flowName: "assets",
      intent: "x",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const callId = run.pendingAgentCall!.id;
    const task = (await engine.agentCall(run.runId, callId)).task;
    assert.deepEqual(task.skills[0].assets.map((a) => a.id).sort(), ["style/guide.md", "style/logo.bin"]);
    assert.equal(
      (await engine.readAgentAsset({ runId: run.runId, callId, assetId: "style/guide.md" })).content,
      "be brief",
    );
    assert.equal(
      (await engine.readAgentAsset({ runId: run.runId, callId, assetId: "style/logo.bin" })).encoding,
      "base64",
    );
    Deno.removeSync(`${project}/workflows/assets/skills/style/guide.md`);
    Deno.symlinkSync("/etc/hostname", `${project}/workflows/assets/skills/style/guide.md`);
    assert.equal(
      (await engine.readAgentAsset({ runId: run.runId, callId, assetId: "style/guide.md" })).content,
      "be brief",
    );
    await assert.rejects(
      async () =>
        await engine.startRun({
          flowName: "assets",
          intent: "y",
          source: "agent_ide",
          agentExecutor: "mcp_client",
        }),
      /skill assets cannot be symbolic links/,
      "a symbolic link is never loaded into a new version",
    );
    // A parent folder of the asset turned into a link after load is not followed either: nothing is read by path.
    const outside = Deno.makeTempDirSync();
    Deno.writeTextFileSync(`${outside}/guide.md`, "OUTSIDE");
    Deno.writeTextFileSync(`${outside}/SKILL.md`, "---\nname: style\ndescription: OUTSIDE\n---\n# OUTSIDE");
    Deno.renameSync(`${project}/workflows/assets/skills/style`, `${project}/style.moved`);
    Deno.symlinkSync(outside, `${project}/workflows/assets/skills/style`);
    assert.equal(
      (await engine.readAgentAsset({ runId: run.runId, callId, assetId: "style/guide.md" })).content,
      "be brief",
    );
    try {
      await engine.startRun({
        flowName: "assets",
        intent: "z",
        source: "agent_ide",
        agentExecutor: "mcp_client",
      });
      assert.fail("a new version loaded through a linked skill folder");
    } catch (error) {
      assert.ok(!String(error).includes("OUTSIDE"), String(error));
      assert.match(String(error), /skills\/style\/SKILL\.md: missing/, "the linked folder is not followed");
    } finally {
      Deno.removeSync(outside, { recursive: true });
    }
    await engine.close();
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("a workflow file with a second hard link is refused, and no loader reason quotes a file", async () => {
  const project = await tempProject({
    ".env": "TOKEN=hunter2",
    "workflows/linked/writer.md": "# Writer",
    "workflows/garbled/workflow.json": "SECRET=hunter2",
  });
  try {
    Deno.mkdirSync(`${project}/workflows/linked`, { recursive: true });
    Deno.linkSync(`${project}/.env`, `${project}/workflows/linked/workflow.json`);
    const engine = await openEngineOnDisk({ projectDir: project });
    const views = await engine.listWorkflows("service");
    const reason = (name: string) => views.find((view) => view.name === name)!.reason ?? "";
    assert.match(reason("linked"), /workflows\/linked\/workflow.json has more than one hard link/);
    assert.match(reason("garbled"), /^workflows\/garbled\/workflow.json: not valid JSON/);
    for (const view of views) assert.ok(!JSON.stringify(view).includes("hunter2"), JSON.stringify(view));
    await engine.close();
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
