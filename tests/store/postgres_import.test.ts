/**
 * `weft team import`: a project's local history moves into its team database whole (Runs, timelines,
 * Artifacts with every revision, Records, workflow versions, publications), once; a second move, or one into
 * a database that has the same stages, is refused and changes nothing.
 */
import assert from "node:assert/strict";
import type { Storage } from "../../src/engine/storage.ts";
import { WeftError } from "../../src/errors.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { openPostgresStorage } from "../../src/store/postgres/postgres_storage.ts";
import { importSqliteHistory } from "../../src/store/postgres/sqlite_import.ts";
import { TEST_ROLE, withPostgres } from "../support/postgres.ts";
import { runWeft, tempProject } from "../support/service.ts";
import { storedRun } from "./support.ts";

/** A local history: two Runs with timelines, a stage committed twice, a definition and a publication. */
async function seed(storage: Storage): Promise<void> {
  await storage.transaction(async (u) => {
    await u.definitions.putBlob("d1", new Uint8Array([1, 2, 3]));
    await u.definitions.save(
      {
        version: "v1",
        flowName: "f",
        origin: "project",
        manifest: { m: 1 },
        files: [{ path: "a.md", digest: "d1" }],
      },
      "t0",
    );
    await u.runs.insert(storedRun("run_old", { status: "completed" }));
    await u.runs.insert(storedRun("run_new", { intent: "waiting for Bob" }));
    await u.runs.appendEvents("run_old", [{ type: "run_started", at: "t1" }, {
      type: "run_completed",
      at: "t2",
    }]);
    for (const n of [1, 2]) {
      await u.artifacts.commit({
        artifactId: "art",
        recordId: `rec_${n}`,
        runId: "run_old",
        flowName: "f",
        stageName: "plan",
        data: { n },
        answers: [],
        at: `t${n}`,
      });
    }
    await u.publications.save({
      path: "docs/plan.md",
      digest: "x",
      artifactId: "art",
      revision: 2,
      runId: "run_old",
      at: "t3",
    });
  });
}

Deno.test("team import: the local history moves whole, once", async (t) => {
  await withPostgres(async (server) => {
    const dir = await Deno.makeTempDir({ prefix: "weft-import-" });
    try {
      const local = openSqliteStorage(`${dir}/weft.db`);
      await seed(local);
      await local.close();

      await t.step("everything the engine reads is there, as it was", async () => {
        const target = { url: await server.newDatabase(), user: TEST_ROLE, project: "shop" };
        const moved = await importSqliteHistory(`${dir}/weft.db`, target);
        assert.deepEqual(moved, { runs: 2, events: 2, artifacts: 1, records: 2, definitions: 1 });
        const team = await openPostgresStorage(target);
        try {
          await team.read(async (u) => {
            assert.deepEqual((await u.runs.list({})).runs.map((r) => r.runId), ["run_new", "run_old"]);
            assert.equal((await u.runs.find("run_new"))?.intent, "waiting for Bob");
            assert.deepEqual((await u.runs.timeline("run_old")).map((e) => e.type), [
              "run_started",
              "run_completed",
            ]);
            assert.deepEqual((await u.artifacts.findArtifact({ artifactId: "art" }, 1))?.data, { n: 1 });
            assert.equal((await u.artifacts.findArtifact({ flowName: "f", stageName: "plan" }))?.revision, 2);
            assert.equal((await u.artifacts.findRecord("rec_2"))?.revision, 2);
            assert.deepEqual([...(await u.definitions.readBlob("d1"))!], [1, 2, 3]);
            assert.equal((await u.definitions.find("v1"))?.files[0].path, "a.md");
            assert.equal((await u.publications.find("docs/plan.md"))?.digest, "x");
          });
          // A moved Run is saved like any other: its revision check starts from the move.
          await team.transaction(async (u) => {
            const run = (await u.runs.find("run_new"))!;
            run.status = "cancelled";
            await u.runs.update(run);
          });
          // The stage's next commit continues its revisions.
          const next = await team.transaction((u) =>
            u.artifacts.commit({
              artifactId: "other",
              recordId: "rec_3",
              runId: "run_new",
              flowName: "f",
              stageName: "plan",
              data: {},
              answers: [],
              at: "t4",
            })
          );
          assert.deepEqual([next.artifact.artifactId, next.artifact.revision], ["art", 3]);
        } finally {
          await team.close();
        }
        // Moved before: refused, and nothing is doubled.
        await assert.rejects(
          importSqliteHistory(`${dir}/weft.db`, target),
          (error: unknown) =>
            error instanceof WeftError && error.code === "CONFLICT" && /moved before/.test(error.message),
        );
        const again = await openPostgresStorage(target);
        try {
          assert.equal((await again.read((u) => u.artifacts.counts())).records, 3);
        } finally {
          await again.close();
        }
      });

      await t.step("a team database with the same stages is refused, nothing moved", async () => {
        const target = { url: await server.newDatabase(), user: TEST_ROLE, project: "shop" };
        const team = await openPostgresStorage(target);
        try {
          await team.transaction(async (u) => {
            await u.runs.insert(storedRun("run_team"));
            await u.artifacts.commit({
              artifactId: "team_art",
              recordId: "team_rec",
              runId: "run_team",
              flowName: "f",
              stageName: "plan",
              data: {},
              answers: [],
              at: "t",
            });
          });
          await assert.rejects(
            importSqliteHistory(`${dir}/weft.db`, target),
            (error: unknown) =>
              error instanceof WeftError && error.code === "CONFLICT" && /f\/plan/.test(error.message),
          );
          assert.deepEqual((await team.read((u) => u.runs.list({}))).runs.map((r) => r.runId), ["run_team"]);
        } finally {
          await team.close();
        }
      });

      await t.step("weft team import moves the project's own .weft/ and says what it moved", async () => {
        const project = await tempProject();
        try {
          const local = openSqliteStorage(`${project}/.weft/weft.db`);
          await seed(local);
          await local.close();
          const env = {
            WEFT_DATABASE_URL: await server.newDatabase(),
            WEFT_PROJECT_KEY: "shop",
            PGUSER: TEST_ROLE,
            PGPASSFILE: Deno.env.get("PGPASSFILE")!,
          };
          const { code, stdout, stderr } = await runWeft(["team", "import"], { cwd: project, env });
          assert.equal(code, 0, stderr + stdout);
          assert.match(
            stdout,
            /moved 2 Runs \(2 timeline entries\), 1 Artifacts, 2 Records and 1 workflow versions/,
          );
          const team = JSON.parse((await runWeft(["team", "--json"], { cwd: project, env })).stdout);
          assert.equal(team.runs, 2);
        } finally {
          await Deno.remove(project, { recursive: true });
        }
      });

      await t.step("a .weft/ weft did not make (a repository's) is never moved", async () => {
        const project = await tempProject();
        try {
          const planted = openSqliteStorage(`${project}/.weft/weft.db`);
          await seed(planted);
          await planted.close();
          // As a checkout writes it: readable by all.
          await Deno.chmod(`${project}/.weft`, 0o755);
          const url = await server.newDatabase();
          const env = {
            WEFT_DATABASE_URL: url,
            WEFT_PROJECT_KEY: "shop",
            PGUSER: TEST_ROLE,
            PGPASSFILE: Deno.env.get("PGPASSFILE")!,
          };
          const { code, stdout } = await runWeft(["team", "import", "--json"], { cwd: project, env });
          assert.equal(code, 4, stdout);
          assert.equal(JSON.parse(stdout).error.code, "NEEDS_RECOVERY");
          const team = await openPostgresStorage({ url, user: TEST_ROLE, project: "shop" });
          try {
            assert.deepEqual((await team.read((u) => u.runs.list({}))).runs, []);
          } finally {
            await team.close();
          }
        } finally {
          await Deno.remove(project, { recursive: true });
        }
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
