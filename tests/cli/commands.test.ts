/**
 * The terminal commands end to end against a real `weft serve`: flows, flow, runs, run, attach with piped
 * answers, cancel, artifacts, artifact export, record; `--json` documents and exit codes.
 */

import assert from "node:assert/strict";
import { runWeft, tempProject, WEFT, withServedProject } from "../support/service.ts";
import { ESC, NOTES_ANSWER, NOTES_PROJECT, NOTES_RECORDED } from "./support.ts";

const json = (stdout: string) => JSON.parse(stdout);

Deno.test("the commands report an offline service and usage errors with their codes and fixes", async () => {
  const cwd = await tempProject(NOTES_PROJECT);
  try {
    const offline = await runWeft(["runs"], { cwd });
    assert.equal(offline.code, 3);
    assert.match(offline.stderr, /SERVICE_OFFLINE/);
    assert.match(offline.stderr, new RegExp(`fix: .*${WEFT} start`));
    const offlineJson = await runWeft(["artifacts", "--json"], { cwd });
    assert.equal(offlineJson.code, 3);
    assert.equal(json(offlineJson.stdout).error.code, "SERVICE_OFFLINE");

    const badStatus = await runWeft(["runs", "--status", "sleeping"], { cwd });
    assert.equal(badStatus.code, 2);
    assert.match(badStatus.stderr, /--status takes one of/);
    const noIntent = await runWeft(["flow", "notes"], { cwd });
    assert.equal(noIntent.code, 2);
    assert.match(noIntent.stderr, /--intent/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("a Run goes from `weft flow` through piped answers to its Artifact and Record", async (t) => {
  await withServedProject({ files: NOTES_PROJECT }, async (served) => {
    const cwd = served.projectDir;
    await t.step("flows lists the project workflow as ready", async () => {
      const { code, stdout } = await runWeft(["flows", "--json"], { cwd });
      assert.equal(code, 0);
      const notes = json(stdout).workflows.find((w: { name: string }) => w.name === "notes");
      assert.equal(notes.ready, true);
      assert.equal(notes.source, "project");
      // Without a model of weft's, the agent workflows are ready too: the IDE's agent does their agent steps.
      const intent = json(stdout).workflows.find((w: { name: string }) => w.name === "intent");
      assert.deepEqual([intent.ready, intent.agentExecutor], [true, "mcp_client"]);
      const human = await runWeft(["flows"], { cwd });
      assert.match(human.stdout, /No model of weft's is configured: your IDE's agent does the agent steps/);
    });

    await t.step("flow with a mistyped workflow name suggests the nearest one", async () => {
      const { code, stdout } = await runWeft(["flow", "nots", "--intent", "x", "--json"], { cwd });
      assert.equal(code, 1);
      const { error } = json(stdout);
      assert.equal(error.code, "NOT_FOUND");
      assert.match(error.message, /did you mean "notes"\?$/);
      assert.match(error.fix, /^weft flow notes /);
    });

    let runId = "";
    await t.step("flow reads the intent from stdin and leaves the Run waiting (exit 0)", async () => {
      const { code, stdout, stderr } = await runWeft(["flow", "notes", "--intent-file", "-", "--json"], {
        cwd,
        stdin: "Write the notes of 1.2\n",
      });
      assert.equal(code, 0, stderr);
      const { run } = json(stdout);
      runId = run.runId;
      assert.equal(run.status, "waiting");
      assert.equal(run.intent, "Write the notes of 1.2");
      assert.deepEqual(run.execution, { source: "cli", agentExecutor: "service" });
      assert.equal(run.pendingAction.kind, "user_ask_questions");
      assert.match(stderr, /started run_/);
    });

    await t.step("attach without a terminal shows what the Run asks and exits 0", async () => {
      const { code, stdout } = await runWeft(["attach", runId], { cwd });
      assert.equal(code, 0);
      assert.match(stdout, new RegExp(`answer with: ${WEFT} attach ${runId}`));
      assert.match(stdout, /audience +Who reads these notes\?/);
      assert.match(stdout, /--answer-json -/);
      assert.ok(!stdout.includes(ESC), stdout);
    });

    await t.step("attach --answer-json answers, follows on and stops at the confirmation", async () => {
      const { code, stdout } = await runWeft(["attach", runId, "--answer-json", "-", "--json"], {
        cwd,
        stdin: JSON.stringify(NOTES_ANSWER),
      });
      assert.equal(code, 0);
      const { run } = json(stdout);
      assert.equal(run.pendingAction.kind, "user_ask_confirmation");
      assert.deepEqual(run.pendingAction.request.context, NOTES_RECORDED);

      const wrongAction = await runWeft(
        ["attach", runId, "--answer-json", "-", "--action", "act_other", "--json"],
        { cwd, stdin: '{ "isConfirmed": true }' },
      );
      assert.equal(wrongAction.code, 1);
      assert.equal(json(wrongAction.stdout).error.code, "CONFLICT");
      const notJson = await runWeft(["attach", runId, "--answer-json", "-"], { cwd, stdin: "yes" });
      assert.equal(notJson.code, 2);
      assert.match(notJson.stderr, /INVALID_INPUT/);
      const invalid = await runWeft(["attach", runId, "--answer-json", "-"], {
        cwd,
        stdin: '{ "isConfirmed": false }',
      });
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /INVALID_REQUEST: .*feedback/);

      const confirmed = await runWeft(["attach", runId, "--answer-json", "-", "--json"], {
        cwd,
        stdin: '{ "isConfirmed": true }',
      });
      assert.equal(confirmed.code, 0);
      assert.equal(json(confirmed.stdout).run.status, "completed");
    });

    await t.step("run shows the timeline, with the answers' source", async () => {
      const { code, stdout } = await runWeft(["run", runId, "--json"], { cwd });
      assert.equal(code, 0);
      const { run, timeline } = json(stdout);
      assert.equal(run.status, "completed");
      const answered = timeline.filter((event: { source?: string }) => event.source === "cli");
      assert.ok(answered.length >= 2, JSON.stringify(timeline));
      const human = await runWeft(["run", runId], { cwd, env: { COLUMNS: "200" } });
      assert.match(human.stdout, /Timeline/);
      assert.match(human.stdout, /Answered in the terminal/, "how each answer came, in words");
      assert.match(human.stdout, /artifact_committed/);
      assert.match(human.stdout, new RegExp(`see what it committed: ${WEFT} artifacts --flow notes`));
    });

    await t.step("run uses the output's width and never cuts an id a person pastes", async () => {
      const { timeline } = json((await runWeft(["run", runId, "--json"], { cwd })).stdout);
      const ids = timeline.flatMap((event: Record<string, unknown>) =>
        Object.entries(event).filter(([key]) => key.endsWith("Id")).map(([, id]) => id as string)
      );
      assert.ok(ids.some((id: string) => id.startsWith("rec_")), JSON.stringify(timeline));
      for (const columns of ["250", "60"]) {
        const { stdout } = await runWeft(["run", runId], { cwd, env: { COLUMNS: columns } });
        for (const id of ids) assert.ok(stdout.includes(id), `COLUMNS=${columns}: ${id} whole in\n${stdout}`);
        const timelineLines = stdout.slice(stdout.indexOf("Timeline")).split("\n");
        const widest = Math.max(...timelineLines.map((line) => [...line].length));
        if (columns === "250") {
          assert.ok(widest > 120 && widest <= 250, `the wide output is used (${widest}):\n${stdout}`);
        }
      }
    });

    let artifactId = "";
    let recordId = "";
    await t.step("artifacts lists the committed stage; artifact shows its data", async () => {
      const { code, stdout } = await runWeft(["artifacts", "--flow", "notes", "--json"], { cwd });
      assert.equal(code, 0);
      const [artifact] = json(stdout).artifacts;
      assert.equal(artifact.stageName, "draft");
      assert.equal(artifact.data, undefined);
      ({ artifactId, recordId } = artifact);
      const detail = await runWeft(["artifact", artifactId, "--json"], { cwd });
      assert.deepEqual(json(detail.stdout).artifact.data, NOTES_RECORDED);
      const table = await runWeft(["artifacts"], { cwd });
      assert.match(table.stdout, /^ARTIFACT +FLOW +STAGE +REV/m);
      assert.match(table.stdout, new RegExp(`${artifactId} +notes +draft +1 `));
    });

    await t.step("artifact --output exports, and refuses to overwrite without --overwrite", async () => {
      const file = `${cwd}/notes.json`;
      const first = await runWeft(["artifact", "--flow", "notes", "--stage", "draft", "--output", file], {
        cwd,
      });
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), NOTES_RECORDED);
      await Deno.writeTextFile(file, "mine");
      const refused = await runWeft(["artifact", artifactId, "--output", file], { cwd });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /OUTPUT_EXISTS.*\n.*fix: .*--overwrite/);
      assert.equal(await Deno.readTextFile(file), "mine");
      const replaced = await runWeft(["artifact", artifactId, "--output", file, "--overwrite"], { cwd });
      assert.equal(replaced.code, 0);
      assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), NOTES_RECORDED);
      const missing = await runWeft(["artifact", "--flow", "notes", "--stage", "draft", "--revision", "9"], {
        cwd,
      });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /NOT_FOUND/);
    });

    await t.step("record shows what was committed and from which answers", async () => {
      const { code, stdout } = await runWeft(["record", recordId, "--json"], { cwd });
      assert.equal(code, 0);
      const { record } = json(stdout);
      assert.equal(record.runId, runId);
      assert.deepEqual(record.data, NOTES_RECORDED);
      const missing = await runWeft(["record", "rec_missing", "--json"], { cwd });
      assert.equal(missing.code, 1);
      assert.equal(json(missing.stdout).error.code, "NOT_FOUND");
    });

    await t.step("cancel ends a Run; looking at it then exits 6", async () => {
      const started = await runWeft(["flow", "notes", "--intent", "second", "--json"], { cwd });
      const second = json(started.stdout).run.runId;
      const { code, stdout } = await runWeft(["cancel", second, "--json"], { cwd });
      assert.equal(code, 0);
      assert.equal(json(stdout).run.status, "cancelled");
      assert.equal((await runWeft(["run", second], { cwd })).code, 6);
      assert.equal((await runWeft(["attach", second], { cwd })).code, 6);
    });

    await t.step("a Run that fails exits 5 with its error", async () => {
      const started = await runWeft(["flow", "notes", "--intent", "third", "--json"], { cwd });
      const third = json(started.stdout).run.runId;
      const revise = JSON.stringify({ isConfirmed: false, feedback: "again" });
      // The ask step's budget is two visits: the second revision sends the Run past it.
      for (const answer of [NOTES_ANSWER, revise, NOTES_ANSWER]) {
        const step = await runWeft(["attach", third, "--answer-json", "-"], {
          cwd,
          stdin: typeof answer === "string" ? answer : JSON.stringify(answer),
        });
        assert.equal(step.code, 0, step.stderr);
      }
      const failed = await runWeft(["attach", third, "--answer-json", "-"], { cwd, stdin: revise });
      assert.equal(failed.code, 5);
      assert.match(failed.stdout, /failed/);
      assert.match(failed.stdout, /BUDGET_EXCEEDED/);
    });

    await t.step("runs lists the Runs in a table and pages by cursor", async () => {
      const all = await runWeft(["runs", "--json"], { cwd });
      assert.equal(json(all.stdout).runs.length, 3);
      const page = await runWeft(["runs", "--flow", "notes", "--limit", "2"], { cwd });
      assert.equal(page.code, 0);
      assert.match(page.stdout, /^RUN +FLOW +VERSION +STATUS +AT +UPDATED +INTENT/m);
      const next = page.stdout.match(
        new RegExp(`next page: ${WEFT} runs --flow notes --limit 2 --cursor (\\S+)`),
      );
      assert.ok(next, page.stdout);
      const rest = await runWeft(["runs", "--flow", "notes", "--limit", "2", "--cursor", next[1], "--json"], {
        cwd,
      });
      assert.equal(json(rest.stdout).runs.length, 1);
      assert.equal(json(rest.stdout).runs[0].runId, runId);
      // None of the three waits: the answer says so, not "no Runs yet".
      const waiting = await runWeft(["runs", "--status", "waiting"], { cwd });
      assert.equal(waiting.stdout, "no waiting Runs\n");
      const other = await runWeft(["runs", "--flow", "other"], { cwd });
      assert.equal(other.stdout, "no Runs of other\n");
    });

    await t.step("token --json prints the token as a JSON document", async () => {
      const { code, stdout } = await runWeft(["token", "--json"], { cwd });
      assert.equal(code, 0);
      assert.deepEqual(json(stdout), { token: served.connection.externalToken });
    });
  });
});
