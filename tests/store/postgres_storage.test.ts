/**
 * What a team store on PostgreSQL guarantees beyond the storage contract: two services never lose each
 * other's change to a Run, start together and migrate once, hold one project per database, and never show a
 * password, whatever fails.
 */
import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { openPostgresStorage } from "../../src/store/postgres/postgres_storage.ts";
import { PG_MIGRATIONS } from "../../src/store/postgres/postgres_migrations.ts";
import { psql, TEST_ROLE, type TestPostgres, withPostgres } from "../support/postgres.ts";
import { storedRun } from "./support.ts";

const classified = (code: string, pattern?: RegExp) => (error: unknown) =>
  error instanceof WeftError && error.code === code && (pattern ? pattern.test(error.message) : true);

Deno.test("team store on PostgreSQL", async (t) => {
  await withPostgres(async (server: TestPostgres) => {
    const open = async (url: string, project = "shop") =>
      await openPostgresStorage({ url, user: TEST_ROLE, project });

    await t.step(
      "a Run saved by one service is never overwritten by another that loaded it before",
      async () => {
        const url = await server.newDatabase();
        const [a, b] = [await open(url), await open(url)];
        try {
          await a.transaction((u) => u.runs.insert(storedRun("run_1", { intent: "start" })));
          const seenByB = (await b.read((u) => u.runs.find("run_1")))!;
          await a.transaction(async (u) => {
            const run = (await u.runs.find("run_1"))!;
            run.intent = "changed by A";
            await u.runs.update(run);
          });
          seenByB.intent = "changed by B";
          const lost = b.transaction(async (u) => {
            await u.runs.update(seenByB);
            await u.runs.appendEvents("run_1", [{ type: "run_started", at: "t" }]);
          });
          await assert.rejects(lost, (error: unknown) => {
            assert.ok(error instanceof WeftError);
            assert.equal(error.code, "CONFLICT");
            assert.equal(error.retryable, true);
            assert.match(error.message, /changed by another service/);
            return true;
          });
          assert.equal((await a.read((u) => u.runs.find("run_1")))?.intent, "changed by A");
          assert.deepEqual(await a.read((u) => u.runs.timeline("run_1")), [], "B's whole unit rolled back");
          // Loaded again, B's change applies over A's.
          await b.transaction(async (u) => {
            const run = (await u.runs.find("run_1"))!;
            run.intent = `${run.intent}, then by B`;
            await u.runs.update(run);
          });
          assert.equal((await a.read((u) => u.runs.find("run_1")))?.intent, "changed by A, then by B");
        } finally {
          await a.close();
          await b.close();
        }
      },
    );

    await t.step("two services saving one Run at the same moment: one wins, the other is told", async () => {
      const url = await server.newDatabase();
      const [a, b] = [await open(url), await open(url)];
      try {
        await a.transaction((u) => u.runs.insert(storedRun("run_2", { state: { n: 0 } })));
        const both = await Promise.allSettled([a, b].map((service, i) =>
          service.transaction(async (u) => {
            const run = (await u.runs.find("run_2"))!;
            run.state = { n: i + 1 };
            await u.runs.update(run);
          })
        ));
        const outcomes = both.map((o) => o.status).sort();
        // READ COMMITTED takes each unit's snapshot per statement: both may load rev 1; the second save then
        // waits on the first's row lock and finds the revision moved on.
        assert.ok(outcomes.includes("fulfilled"));
        for (const o of both) if (o.status === "rejected") assert.ok(classified("CONFLICT")(o.reason));
        const stored = (await a.read((u) => u.runs.find("run_2")))!;
        const winner = both.findIndex((o) => o.status === "fulfilled");
        if (outcomes.includes("rejected")) assert.deepEqual(stored.state, { n: winner + 1 });
      } finally {
        await a.close();
        await b.close();
      }
    });

    await t.step("services starting together on an empty database migrate it once", async () => {
      const url = await server.newDatabase();
      const opened = await Promise.all([open(url), open(url), open(url)]);
      await Promise.all(opened.map((s) => s.close()));
      const database = new URL(url).pathname.slice(1);
      assert.equal(
        await psql(server.port, "SELECT COUNT(*) FROM weft_migrations", database),
        String(PG_MIGRATIONS.length),
      );
      const again = await open(url);
      await again.close();
      assert.equal(
        await psql(server.port, "SELECT COUNT(*) FROM weft_migrations", database),
        String(PG_MIGRATIONS.length),
      );
    });

    await t.step(
      "a database holds one project: another project's weft is refused and changes nothing",
      async () => {
        const url = await server.newDatabase();
        await (await open(url, "shop")).close();
        await assert.rejects(
          open(url, "blog"),
          classified("CONFIGURATION_REQUIRED", /holds project "shop", not "blog"/),
        );
        const database = new URL(url).pathname.slice(1);
        assert.equal(await psql(server.port, "SELECT project_key FROM weft_project", database), "shop");
      },
    );

    await t.step("a store written by a newer weft is refused rather than misread", async () => {
      const url = await server.newDatabase();
      await (await open(url)).close();
      const database = new URL(url).pathname.slice(1);
      await psql(
        server.port,
        `INSERT INTO weft_migrations VALUES (${PG_MIGRATIONS.length + 1}, 'later')`,
        database,
      );
      await assert.rejects(open(url), classified("STORAGE_ERROR", /newer weft/));
    });

    await t.step("no message ever shows a password, whatever fails", async () => {
      const secret = "hunter2-secret";
      const port = server.port;
      const attempts = [
        // A wrong password written into the connection string.
        `postgres://${TEST_ROLE}:${secret}@127.0.0.1:${port}/postgres`,
        // A database that does not exist.
        `postgres://${TEST_ROLE}:${secret}@127.0.0.1:${port}/no_such_db`,
        // No server there.
        `postgres://${TEST_ROLE}:${secret}@127.0.0.1:1/postgres?password=${secret}`,
      ];
      const codes = [];
      for (const url of attempts) {
        const error = await openPostgresStorage({ url, project: "shop" }).then(
          (s) => (s.close(), assert.fail("opened")),
          (e) => e,
        );
        assert.ok(error instanceof WeftError, String(error));
        assert.doesNotMatch(`${error.message} ${JSON.stringify(error)}`, new RegExp(secret));
        assert.match(error.message, new RegExp(`postgres://${TEST_ROLE}@127\\.0\\.0\\.1`));
        codes.push(error.code);
      }
      assert.deepEqual(codes, ["CONFIGURATION_REQUIRED", "CONFIGURATION_REQUIRED", "STORAGE_ERROR"]);
    });

    await t.step("the password comes from .pgpass: without it the server refuses the login", async () => {
      const url = await server.newDatabase();
      const pgpass = Deno.env.get("PGPASSFILE")!;
      Deno.env.set("PGPASSFILE", `${pgpass}.missing`);
      try {
        await assert.rejects(open(url), classified("CONFIGURATION_REQUIRED", /refused the login.*pgpass/));
      } finally {
        Deno.env.set("PGPASSFILE", pgpass);
      }
      await (await open(url)).close();
    });
  });
});
