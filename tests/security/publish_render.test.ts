/**
 * A repository's publish template cannot hold the service: one whose render has no end (sections nested
 * over a list of its own initial state), started with the IDE's token alone, fails with a classified
 * `publish_failed` naming the bound, and another session's `status` answers meanwhile.
 */

import assert from "node:assert/strict";
import type { RunEventView, RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { within } from "../support/deadline.ts";
import { expandingFiles, NESTED_SECTIONS } from "../support/workflows.ts";

/** How long `status` may take while the publication renders: a bound on waiting, far above any answer. */
const STATUS_DEADLINE_MS = 10_000;

Deno.test("publish render: a template whose work has no end fails at its bound while status answers", async () => {
  await withServedProject({ files: expandingFiles(60, NESTED_SECTIONS) }, async (served) => {
    const ide = await mcpClient(served, "/mcp", { name: "ide" });
    const other = await mcpClient(served, "/mcp", { name: "other" });
    try {
      const started = call<{ run: RunView }>(ide, "flow", { flowName: "expand", intent: "Expand" });
      let settled = false;
      started.finally(() => settled = true).catch(() => {});
      // Each status asked while the start (its commit and publication) is under way answers in time.
      do {
        const status = await within(
          "status on another session while the publication renders",
          call<{ service: { publications: { files: number } } }>(other, "status"),
          STATUS_DEADLINE_MS,
        );
        assert.equal(status.service.publications.files, 0);
      } while (!settled);
      const { run } = await within("the Run that publishes", started);
      assert.equal(run.status, "completed");
      const { timeline } = await call<{ timeline: RunEventView[] }>(ide, "get_run", {
        runId: run.runId,
        timeline: true,
      });
      const failed = timeline.find((event) => event.type === "publish_failed");
      assert.ok(failed, JSON.stringify(timeline.map((event) => event.type)));
      const error = failed.error as { code: string; message: string };
      assert.equal(error.code, "PUBLISH_FAILED");
      assert.match(error.message, /takes more than \d+ steps to render \(the bound of one render\)/);
      await assert.rejects(Deno.stat(`${served.projectDir}/docs/expand.md`), Deno.errors.NotFound);
    } catch (error) {
      // A service that stopped answering would not end on SIGTERM, nor end the clients' sessions.
      await served.kill();
      throw error;
    } finally {
      await within("the clients to close", Promise.all([closeClient(ide), closeClient(other)]));
    }
  });
});
