/**
 * A project whose `.git/` plants programs (an fsmonitor, a filter driver whose name holds `=`), as an archive,
 * a shared folder or a copied checkout brings it, with a `.weft/` of the person's own: nothing weft does in
 * it runs them, nor what the person's own `GIT_CONFIG_PARAMETERS` names, with the person's keys in the
 * environment. Not `weft status`, `doctor`, `flows`, `start`, `stop`, `serve`, nor `weft mcp` (which an IDE
 * launches by itself), nor a workflow's `changes` step started with the `/mcp` token alone (weft's own
 * `git add`). The person's own git does run them.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { Client } from "../support/sdk_test_client.ts";
import { call, closeClient, mcpClient, runWeft, serve, tempProject } from "../support/service.ts";
import { bridgeTransport } from "../support/bridge.ts";
import { eventually } from "../support/deadline.ts";
import { personGit } from "../support/git.ts";
import { Markers, plantConfig } from "../support/planted_git.ts";
import { workflowFiles } from "../support/workflows.ts";

/** A workflow that only compares the project's files since the Run began and commits what changed. */
const COMPARE = {
  name: "compare",
  title: "Compare",
  description: "Compares the project's files since the Run began.",
  entryStage: "look",
  stages: {
    look: {
      state: { schema: { type: "object", properties: { changes: { type: "object" } } }, initial: {} },
      entryStep: "changes",
      steps: {
        changes: {
          kind: "changes",
          since: "run",
          resultTo: "/changes",
          routes: { changed: "commit", unchanged: "commit" },
        },
        commit: { kind: "commit", data: "/changes", routes: { committed: { endStage: "done" } } },
      },
      routes: { done: { end: "completed" } },
    },
  },
};

Deno.test("a planted fsmonitor and a filter named with `=` run in no command of weft's, nor in a changes step started from /mcp", async () => {
  const markers = await Markers.make();
  const dir = Deno.realPathSync(await tempProject({ ...workflowFiles(COMPARE), "notes.txt": "notes\n" }));
  // What the person has in their environment: a key, and git settings of their own that name a program.
  const PERSON = {
    OPENAI_API_KEY: "sk-person-key-never-seen-by-git",
    GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${markers.script("person-fsmonitor")}'`,
  };
  const weft = async (...args: string[]) => {
    const done = await runWeft([...args, "--project", dir], { env: PERSON });
    assert.deepEqual(
      markers.ran(),
      [],
      `weft ${args.join(" ")} ran what the repository named:\n${markers.report()}`,
    );
    return done;
  };
  try {
    personGit(dir, "init", "-q", "-b", "main");
    Deno.writeTextFileSync(`${dir}/.gitattributes`, "*.txt filter=a=b\n");
    personGit(dir, "add", "-A");
    personGit(dir, "commit", "-q", "-m", "first");
    plantConfig(dir, [
      "[core]",
      `\tfsmonitor = ${markers.script("fsmonitor")}`,
      '[filter "a=b"]',
      `\tclean = ${markers.command("filter-clean")}`,
      "\trequired = true",
    ]);

    assert.equal((await weft("start")).code, 0);
    let stopped = false;
    try {
      assert.ok(Deno.statSync(`${dir}/.weft`).isDirectory, "the person's own .weft/");
      assert.match((await weft("status")).stdout, /running/);
      const doctor = JSON.parse((await weft("doctor", "--json")).stdout);
      assert.deepEqual(
        doctor.findings.filter((finding: { check: string }) => finding.check === "git"),
        [{ check: "git", state: "ok", message: "git ignores .weft/" }],
        "doctor's git findings still answer, through weft's git",
      );
      await weft("flows");
      assert.equal((await weft("stop")).code, 0);
      stopped = true;
    } finally {
      if (!stopped) await runWeft(["stop", "--project", dir]);
    }

    // `weft serve` in the foreground; only the IDE's token starts a Run whose changes step runs weft's own
    // `git add` over the filtered file; and `weft mcp` as an IDE launches it.
    const served = await serve(dir, { env: PERSON });
    try {
      const ide = await mcpClient(served, "/mcp");
      try {
        const { run } = await call<{ run: RunView }>(ide, "flow", { flowName: "compare", intent: "compare" });
        const ended = await eventually("the compare Run to end", async () => {
          const now = (await call<{ run: RunView }>(ide, "get_run", { runId: run.runId })).run;
          return now.status === "waiting" || now.status === "running" ? undefined : now;
        });
        assert.equal(ended.status, "completed", JSON.stringify(ended));
      } finally {
        await closeClient(ide);
      }
      const client = new Client({ name: "ide", version: "0.0.0" });
      await client.connect(bridgeTransport(dir, PERSON));
      try {
        await call(client, "status");
      } finally {
        await client.close();
      }
    } finally {
      await served.stop();
    }
    assert.deepEqual(
      markers.ran(),
      [],
      `serve, its changes step or mcp ran what the repository named:\n${markers.report()}`,
    );

    // Not vacuous: the person's own git runs both.
    personGit(dir, "add", "-A");
    assert.deepEqual(markers.ran(), ["filter-clean", "fsmonitor"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await markers.remove();
  }
});
