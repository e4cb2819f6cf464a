/**
 * The docs work as written: every JSON block in `docs/` is one JSON document; every workflow among them is
 * written into a project as the docs say (its instructions and Skills included), loads, and runs to
 * completion; and the answers and tool inputs the docs show inline are the ones used, so each is accepted.
 * A command step's command is the reader's own (their tests), so its result is given as an agent's is: it
 * fails the first time, which sends the Run round its repair loop, and passes after.
 */

import assert from "node:assert/strict";
import {
  publishQuestions,
  validateConfirmationAnswer,
  validateQuestionsAnswer,
} from "../../src/engine/answers.ts";
import { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { projectFolder } from "../../src/files/project_folder.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import { projectChanges } from "../../src/files/project_changes.ts";
import { fillPublishPath, slugOf } from "../../src/engine/publish_path.ts";
import { DEFAULT_PUBLISH_FOLDER } from "../../src/engine/commit_step.ts";
import type { Json } from "../support/json.ts";

// The docs' examples are edited by people, so they are read as loose JSON.

/** One page of docs/ and what it shows. */
interface Page {
  name: string;
  text: string;
  /** Every ```json block, parsed. */
  blocks: Json[];
  /** Inline `…` spans that are JSON answers or tool inputs. */
  inline: Json[];
}

const DOCS = new URL("../../docs/", import.meta.url);

async function readPages(): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const entry of Deno.readDir(DOCS)) {
    if (!entry.name.endsWith(".md")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, DOCS));
    const blocks = [...text.matchAll(/^```json\n([^]*?)^```$/gm)].map(([, body], index) => {
      try {
        return JSON.parse(body);
      } catch (error) {
        throw new Error(`docs/${entry.name}: JSON block ${index + 1} is not one JSON document: ${error}`);
      }
    });
    const inline = [...text.replace(/^```[^]*?^```$/gm, "").matchAll(/`([[{][^`]*)`/g)]
      .flatMap(([, span]) => {
        try {
          return [JSON.parse(span)];
        } catch {
          return []; // a shape written with placeholders, such as { isConfirmed, feedback? }
        }
      })
      .filter((value) =>
        isQuestionsAnswer(value) || "isConfirmed" in value || "value" in value || "outcome" in value
      );
    pages.push({ name: entry.name, text, blocks, inline });
  }
  return pages;
}

const isQuestionsAnswer = (value: Json) =>
  Array.isArray(value) && value.every((entry) => typeof entry === "object" && entry && "questionId" in entry);

const pages = await readPages();

Deno.test("every JSON block in docs/ is one JSON document", () => {
  assert.ok(pages.some((page) => page.blocks.length), "the docs hold JSON examples");
});

Deno.test("every workflow in docs/ loads and runs to completion with the docs' own answers", async () => {
  const used = new Set<Json>();
  for (const page of pages) {
    for (const manifest of page.blocks.filter((block) => block?.stages)) {
      const where = `docs/${page.name}: workflow "${manifest.name}"`;
      const project = await Deno.makeTempDir({ prefix: "weft-docs-" });
      const engine = await Engine.open({
        projectFiles: projectFolder(await Deno.realPath(project)),
        projectTree: projectTree(await Deno.realPath(project)),
        projectChanges: projectChanges(await Deno.realPath(project), `${project}/.weft/changes`),
        storage: openSqliteStorage(":memory:"),
        embedded: [],
      });
      try {
        await writeWorkflow(project, manifest, page);
        const view = (await engine.listWorkflows("mcp_client")).find((w) => w.name === manifest.name);
        assert.ok(view?.available, `${where} does not load: ${view?.reason}`);
        let run = await engine.startRun({
          flowName: manifest.name,
          intent: "Notes for 1.2",
          source: "agent_ide",
          agentExecutor: "mcp_client",
        });
        for (let turn = 0; run.status === "running" || run.status === "waiting"; turn++) {
          assert.ok(
            turn < 20,
            `${where} keeps going round: ${JSON.stringify(await engine.getRunTimeline(run.runId))}`,
          );
          run = await act(engine, run, page, used);
        }
        assert.equal(
          run.status,
          "completed",
          `${where} ended ${run.status}: ${JSON.stringify(run.lastError)}`,
        );
        assert.ok(
          (await engine.listArtifacts({ flowName: manifest.name })).artifacts.length,
          `${where} committed nothing`,
        );
        await assertPublished(project, manifest, run, where);
      } finally {
        await engine.close();
        await Deno.remove(project, { recursive: true });
      }
    }
  }
  for (const page of pages.filter((page) => page.blocks.some((block) => block?.stages))) {
    for (const example of page.inline) {
      assert.ok(used.has(example), `docs/${page.name}: the example ${JSON.stringify(example)} is never used`);
    }
  }
});

Deno.test("answers shown on pages without a workflow are accepted as answers", () => {
  for (const page of pages.filter((page) => !page.blocks.some((block) => block?.stages))) {
    for (const example of page.inline) {
      if (isQuestionsAnswer(example)) {
        // Questions that take exactly what the example gives: written answers, skippable where it skips.
        const questions = publishQuestions(example.map((entry: Json) => ({
          id: entry.questionId,
          question: entry.questionId,
          isSkippable: entry.isSkipped === true,
        })));
        validateQuestionsAnswer(questions, example);
      } else if ("isConfirmed" in example) validateConfirmationAnswer(example);
    }
  }
});

/** Each stage that declares `publish` left its file, with frontmatter, where its path says. */
async function assertPublished(project: string, manifest: Json, run: RunView, where: string): Promise<void> {
  for (const [stageName, stage] of Object.entries<Json>(manifest.stages)) {
    if (!stage.publish) continue;
    const path = fillPublishPath(stage.publish.path, {
      flowName: manifest.name,
      stageName,
      runId: run.runId,
      slug: slugOf(run.intent),
      publishFolder: DEFAULT_PUBLISH_FOLDER,
    });
    const text = await Deno.readTextFile(`${project}/${path}`).catch(() => "");
    assert.match(
      text,
      new RegExp(`^---\nweft:\n {2}workflow: ${manifest.name}\n`),
      `${where} published no ${path}`,
    );
  }
}

/** Writes the manifest and the files the docs tell the reader to write beside it. */
async function writeWorkflow(project: string, manifest: Json, page: Page): Promise<void> {
  const dir = `${project}/workflows/${manifest.name}`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/workflow.json`, JSON.stringify(manifest));
  const skills = [...page.text.matchAll(/^```markdown\n(---\nname: ([\w-]+)\n[^]*?)^```$/gm)];
  // A template is shown as a ```mustache block whose first line is a comment naming its file.
  const templates = [...page.text.matchAll(/^```mustache\n(\{\{! ([\w./-]+) \}\}\n[^]*?)^```$/gm)];
  for (const stage of Object.values<Json>(manifest.stages)) {
    if (stage.publish?.template) {
      const template = templates.find(([, , file]) => file === stage.publish.template);
      assert.ok(template, `docs/${page.name} shows no template "${stage.publish.template}"`);
      await Deno.writeTextFile(`${dir}/${stage.publish.template}`, template[1]);
    }
    for (const step of Object.values<Json>(stage.steps)) {
      if (step.kind !== "agent") continue;
      await Deno.writeTextFile(`${dir}/${step.instructions}`, `# ${step.agentId}\n`);
      for (const name of step.skills ?? []) {
        const skill = skills.find(([, , skillName]) => skillName === name);
        assert.ok(skill, `docs/${page.name} shows no SKILL.md for "${name}"`);
        await Deno.mkdir(`${dir}/skills/${name}`, { recursive: true });
        await Deno.writeTextFile(`${dir}/skills/${name}/SKILL.md`, skill[1]);
      }
    }
  }
}

/** Does what the Run waits for, with the docs' inline examples where they fit. */
async function act(engine: Engine, run: RunView, page: Page, used: Set<Json>): Promise<RunView> {
  const action = run.pendingAction;
  if (action?.kind === "user_ask_questions") {
    const ids = (action.request as { questions: { id: string }[] }).questions.map((q) => q.id).join();
    const example = page.inline.find((value) =>
      isQuestionsAnswer(value) && value.map((entry: Json) => entry.questionId).join() === ids
    );
    const answer = example ??
      (action.request as { questions: { id: string }[] }).questions.map((q) => ({
        questionId: q.id,
        isSkipped: false,
        answer: "Faster sync",
      }));
    used.add(example);
    return await engine.answerAsk({ runId: run.runId, actionId: action.id, answer, source: "agent_ide" });
  }
  if (action) {
    // The revision example is sent once (the Run goes round again), then the confirmation.
    const revise = page.inline.find((value) => value.isConfirmed === false);
    const example = revise && !used.has(revise)
      ? revise
      : page.inline.find((value) => value.isConfirmed === true);
    used.add(example);
    return await engine.answerAsk({
      runId: run.runId,
      actionId: action.id,
      answer: example ?? { isConfirmed: true },
      source: "agent_ide",
    });
  }
  const command = run.pendingCommand;
  if (command) {
    const ended = (await engine.getRunTimeline(run.runId)).filter((event) => event.type === "command_ended");
    const exitCode = ended.length === 0 ? 1 : 0;
    await engine.startCommand({
      runId: run.runId,
      commandId: command.id,
      argv: ["deno", "task", "test"],
      cwd: ".",
    });
    const stream = (text: string) => ({ text, cutBytes: 0 });
    return await engine.completeCommand({
      runId: run.runId,
      commandId: command.id,
      result: {
        exitCode,
        signal: null,
        timedOut: false,
        durationMs: 1200,
        stdout: stream(exitCode ? "FAILED tests/sync_test.ts\n" : "ok | 12 passed\n"),
        stderr: stream(""),
      },
    });
  }
  const call = run.pendingAgentCall;
  assert.ok(call, `the Run waits for nothing: ${JSON.stringify(run)}`);
  const task = (await engine.agentCall(run.runId, call.id)).task;
  for (const tool of task.tools.filter((tool) => tool.kind === "submit_state")) {
    const example = page.inline.find((value) => "value" in value);
    assert.ok(example, `docs/${page.name} shows no input for the ${tool.id} tool`);
    used.add(example);
    await engine.runAgentTool({ runId: run.runId, callId: call.id, toolId: tool.id, input: example });
  }
  const result = page.inline.find((value) => "outcome" in value) ?? { outcome: "ready" };
  used.add(result);
  return await engine.completeAgentCall({ runId: run.runId, callId: call.id, result });
}
