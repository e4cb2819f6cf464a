/**
 * Two services, two checkouts of one project, one team database: a Run started through one is seen and
 * answered through the other, and `status` says where Runs live. The connection comes from the environment
 * and the password from `.pgpass`; nothing the services write names the password.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import {
  call,
  closeClient,
  mcpClient,
  runWeft,
  serve,
  serviceFiles,
  tempProject,
} from "../support/service.ts";
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
            // `weft team` sets up and checks the database, and lists both services as connected.
            const team = await runWeft(["team", "--json"], { cwd: dirs[0], env });
            assert.equal(team.code, 0, team.stderr + team.stdout);
            const report = JSON.parse(team.stdout);
            assert.equal(report.project, "brief-demo");
            assert.equal(report.runs, 1);
            assert.match(report.database, /^postgres:\/\/127\.0\.0\.1:\d+\/weft_test_1$/);
            assert.equal(report.services.length, 2, team.stdout);
            for (const { name } of report.services) assert.match(name, /^service \S+@\S+ pid \d+$/);
            const human = await runWeft(["team"], { cwd: dirs[1], env });
            assert.match(
              human.stdout,
              /connected +service .* pid \d+ .*\n +service .* pid \d+/,
              human.stdout,
            );
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
      const stopped = JSON.parse((await runWeft(["team", "--json"], { cwd: dirs[0], env })).stdout);
      assert.deepEqual(stopped.services, [], "a stopped service is no longer listed");
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

Deno.test("weft team: a project without a team database says so, with what to configure", async () => {
  const dir = await tempProject();
  const home = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    const { code, stdout } = await runWeft(["team", "--json"], { cwd: dir, env: { XDG_CONFIG_HOME: home } });
    assert.equal(code, 1);
    const { error } = JSON.parse(stdout);
    assert.equal(error.code, "CONFIGURATION_REQUIRED");
    assert.match(error.message, /no team database/);
    assert.match(error.fix, /WEFT_DATABASE_URL/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
