/**
 * Two services, two checkouts of one project, one team database: a Run started through one is seen and
 * answered through the other, and `status` says where Runs live. The connection comes from the environment
 * and the password from `.pgpass`; nothing the services write names the password.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve, serviceFiles, tempProject } from "../support/service.ts";
import { MARKDOWN_BRIEF, workflowFiles } from "../support/workflows.ts";
import { TEST_PASSWORD, TEST_ROLE, withPostgres } from "../support/postgres.ts";

Deno.test("team store: a Run started through one teammate's service is answered through another's", async () => {
  await withPostgres(async (server) => {
    const env = {
      WEFT_DATABASE_URL: await server.newDatabase(),
      WEFT_PROJECT_KEY: "brief-demo",
      PGUSER: TEST_ROLE,
      PGPASSFILE: Deno.env.get("PGPASSFILE")!,
    };
    const dirs = [
      await tempProject(workflowFiles(MARKDOWN_BRIEF)),
      await tempProject(workflowFiles(MARKDOWN_BRIEF)),
    ];
    try {
      const a = await serve(dirs[0], { env });
      try {
        const b = await serve(dirs[1], { env });
        try {
          const [clientA, clientB] = [
            await mcpClient(a, "/internal/mcp"),
            await mcpClient(b, "/internal/mcp"),
          ];
          try {
            const { run } = await call<{ run: RunView }>(clientA, "flow", {
              flowName: "brief",
              intent: "A brief",
            });
            await call(clientA, "answer_ask", {
              runId: run.runId,
              actionId: run.pendingAction!.id,
              answer: [{ questionId: "brief", isSkipped: false, answer: "Export as CSV." }],
            });
            const seen = (await call<{ run: RunView }>(clientB, "get_run", { runId: run.runId })).run;
            assert.equal(seen.status, "waiting");
            const confirmed = await call<{ run: RunView }>(clientB, "answer_ask", {
              runId: run.runId,
              actionId: seen.pendingAction!.id,
              answer: { isConfirmed: true },
            });
            assert.equal(confirmed.run.status, "completed");
            assert.equal(
              (await call<{ run: RunView }>(clientA, "get_run", { runId: run.runId })).run.status,
              "completed",
            );
            const { service } = await call<{ service: { storage: { kind: string } } }>(clientA, "status");
            assert.equal(service.storage.kind, "postgresql");
          } finally {
            await closeClient(clientA);
            await closeClient(clientB);
          }
        } finally {
          await b.stop();
        }
      } finally {
        await a.stop();
      }
      for (const dir of dirs) {
        const written = await serviceFiles(dir);
        assert.match(
          written,
          /"service\.team_store","database":"postgres:\/\/127\.0\.0\.1:\d+\/weft_test_1"/,
          "the log says where Runs live",
        );
        assert.doesNotMatch(written, new RegExp(TEST_PASSWORD));
        await Deno.stat(`${dir}/.weft`);
      }
    } finally {
      for (const dir of dirs) await Deno.remove(dir, { recursive: true });
    }
  });
});
