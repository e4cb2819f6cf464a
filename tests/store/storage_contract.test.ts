/**
 * One storage contract, two stores: every case runs against the embedded SQLite store and against a team
 * store on a throwaway PostgreSQL server (a fresh database per case), so what the engine relies on holds on
 * both.
 */
import assert from "node:assert/strict";
import type { Storage, StorageUnit } from "../../src/engine/storage.ts";
import { WeftError } from "../../src/errors.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { openPostgresStorage } from "../../src/store/postgres/postgres_storage.ts";
import { withPostgres } from "../support/postgres.ts";
import { storedRun } from "./support.ts";

type Case = [name: string, body: (storage: Storage) => Promise<void>];

const write = <T>(storage: Storage, work: (unit: StorageUnit) => Promise<T>) => storage.transaction(work);
const read = <T>(storage: Storage, work: (unit: StorageUnit) => Promise<T>) => storage.read(work);
const invalidRequest = (error: unknown) => error instanceof WeftError && error.code === "INVALID_REQUEST";

const CASES: Case[] = [
  [
    "a Run is found as saved, and a loaded Run saved again carries its change and its new status",
    async (s) => {
      await write(s, (u) => u.runs.insert(storedRun("run_a", { intent: "first" })));
      assert.equal((await read(s, (u) => u.runs.find("run_a")))?.intent, "first");
      assert.equal(await read(s, (u) => u.runs.find("run_none")), undefined);
      await write(s, async (u) => {
        const run = (await u.runs.find("run_a"))!;
        run.status = "completed";
        run.intent = "second";
        await u.runs.update(run);
      });
      const saved = await read(s, (u) => u.runs.find("run_a"));
      assert.deepEqual([saved?.intent, saved?.status], ["second", "completed"]);
      assert.deepEqual(
        (await read(s, (u) => u.runs.list({ status: "completed" }))).runs.map((r) => r.runId),
        [
          "run_a",
        ],
      );
    },
  ],
  [
    "Runs list newest first, page by cursor, filter by flow and status, and a cursor keeps to its filters",
    async (s) => {
      await write(s, async (u) => {
        for (let i = 1; i <= 5; i++) {
          await u.runs.insert(storedRun(`run_${i}`, { flowName: i % 2 ? "odd" : "even" }));
        }
      });
      const first = await read(s, (u) => u.runs.list({ limit: 2 }));
      assert.deepEqual(first.runs.map((r) => r.runId), ["run_5", "run_4"]);
      const second = await read(s, (u) => u.runs.list({ limit: 2, cursor: first.nextCursor }));
      assert.deepEqual(second.runs.map((r) => r.runId), ["run_3", "run_2"]);
      const last = await read(s, (u) => u.runs.list({ limit: 2, cursor: second.nextCursor }));
      assert.deepEqual([last.runs.map((r) => r.runId), last.nextCursor], [["run_1"], undefined]);
      const odd = await read(s, (u) => u.runs.list({ flowName: "odd", limit: 2 }));
      assert.deepEqual(odd.runs.map((r) => r.runId), ["run_5", "run_3"]);
      await assert.rejects(
        read(s, (u) => u.runs.list({ flowName: "even", cursor: odd.nextCursor })),
        invalidRequest,
      );
      assert.equal(await read(s, (u) => u.runs.hasActive("odd")), true);
      assert.equal(await read(s, (u) => u.runs.hasActive("none")), false);
    },
  ],
  ["status counts, active versions, unversioned and interruptible Runs follow what is stored", async (s) => {
    await write(s, async (u) => {
      await u.runs.insert(storedRun("waits_person", { version: "v1" }));
      await u.runs.insert(
        storedRun("waits_agent", { version: "v2", pendingAgentCall: { id: "c1" } as never }),
      );
      await u.runs.insert(storedRun("runs_now", { status: "running", version: undefined }));
      await u.runs.insert(storedRun("done", { status: "completed", version: undefined }));
    });
    const counts = await read(s, (u) => u.runs.countByStatus());
    assert.deepEqual([counts.waiting, counts.running, counts.completed, counts.failed ?? 0], [2, 1, 1, 0]);
    const versions = await read(s, (u) => u.runs.activeVersions());
    assert.deepEqual(
      versions.map((v) => `${v.version}:${v.count}`).sort(),
      ["null:1", "v1:1", "v2:1"],
    );
    assert.deepEqual((await read(s, (u) => u.runs.unversioned())).map((r) => r.runId), ["runs_now"]);
    assert.deepEqual(
      (await read(s, (u) => u.runs.listInterruptible())).map((r) => r.runId).sort(),
      ["runs_now", "waits_agent"],
    );
  }],
  ["a timeline keeps its events in order, numbered on from the last", async (s) => {
    await write(s, async (u) => {
      await u.runs.insert(storedRun("run_t"));
      await u.runs.appendEvents("run_t", [{ type: "run_started", at: "t1" }, {
        type: "stage_entered",
        at: "t2",
      }]);
    });
    await write(
      s,
      (u) => u.runs.appendEvents("run_t", [{ type: "run_completed", at: "t3", note: "x" } as never]),
    );
    const timeline = await read(s, (u) => u.runs.timeline("run_t"));
    assert.deepEqual(
      timeline.map((e) => [e.seq, e.type, e.at]),
      [[1, "run_started", "t1"], [2, "stage_entered", "t2"], [3, "run_completed", "t3"]],
    );
    assert.equal((timeline[2] as unknown as { note: string }).note, "x");
  }],
  [
    "a stage commit makes a new Artifact revision and a Record; both are found, listed and counted",
    async (s) => {
      const commit = (n: number, stageName = "plan") => ({
        artifactId: `art_${n}`,
        recordId: `rec_${n}`,
        runId: "run_c",
        flowName: "f",
        stageName,
        data: { n },
        answers: [{ n }],
        at: `2026-01-0${n}T00:00:00.000Z`,
      });
      await write(s, (u) => u.runs.insert(storedRun("run_c")));
      const first = await write(s, (u) => u.artifacts.commit(commit(1)));
      assert.deepEqual([first.artifact.artifactId, first.artifact.revision, first.record.revision], [
        "art_1",
        1,
        1,
      ]);
      const second = await write(s, (u) => u.artifacts.commit(commit(2)));
      assert.deepEqual(
        [second.artifact.artifactId, second.artifact.revision],
        ["art_1", 2],
        "the same Artifact",
      );
      await write(s, (u) => u.artifacts.commit(commit(3, "spec")));
      const current = await read(s, (u) => u.artifacts.findArtifact({ flowName: "f", stageName: "plan" }));
      assert.deepEqual([current?.revision, current?.data], [2, { n: 2 }]);
      const earlier = await read(s, (u) => u.artifacts.findArtifact({ artifactId: "art_1" }, 1));
      assert.deepEqual([earlier?.revision, earlier?.data, earlier?.recordId], [1, { n: 1 }, "rec_1"]);
      assert.equal(await read(s, (u) => u.artifacts.findArtifact({ artifactId: "art_1" }, 9)), null);
      assert.equal(await read(s, (u) => u.artifacts.findArtifact({ artifactId: "art_none" })), null);
      const page = await read(s, (u) => u.artifacts.list({ limit: 1 }));
      assert.deepEqual(page.artifacts.map((a) => a.stageName), ["spec"]);
      assert.equal((page.artifacts[0] as { data?: unknown }).data, undefined, "a list carries no data");
      const next = await read(s, (u) => u.artifacts.list({ limit: 1, cursor: page.nextCursor }));
      assert.deepEqual([next.artifacts.map((a) => a.stageName), next.nextCursor], [["plan"], undefined]);
      const record = await read(s, (u) => u.artifacts.findRecord("rec_2"));
      assert.deepEqual([record?.revision, record?.data, record?.answers], [2, { n: 2 }, [{ n: 2 }]]);
      const committed = await read(s, (u) => u.artifacts.committedByRun("run_c"));
      assert.deepEqual(committed.map((c) => [c.stageName, c.revision]), [["plan", 2], ["spec", 1]]);
      assert.deepEqual(await read(s, (u) => u.artifacts.counts()), { artifacts: 2, records: 3 });
    },
  ],
  [
    "definitions keep each file content once, read back byte for byte, and prune what no Run names",
    async (s) => {
      const bytes = new Uint8Array([0, 1, 2, 255, 10]);
      await write(s, async (u) => {
        await u.definitions.putBlob("d1", bytes);
        await u.definitions.putBlob("d1", bytes);
        await u.definitions.putBlob("d2", new Uint8Array([7]));
        await u.definitions.save(
          {
            version: "v1",
            flowName: "f",
            origin: "project",
            manifest: { a: 1 },
            files: [{ path: "x.md", digest: "d1" }],
          },
          "now",
        );
        await u.definitions.save(
          {
            version: "v9",
            flowName: "f",
            origin: "project",
            manifest: {},
            files: [{ path: "y.md", digest: "d2" }],
          },
          "now",
        );
        await u.runs.insert(storedRun("run_v", { version: "v1" }));
      });
      assert.equal(await read(s, (u) => u.definitions.has("v1")), true);
      assert.equal(await read(s, (u) => u.definitions.hasBlob("d1")), true);
      const found = await read(s, (u) => u.definitions.find("v1"));
      assert.deepEqual(found, {
        version: "v1",
        flowName: "f",
        origin: "project",
        manifest: { a: 1 },
        files: [{ path: "x.md", digest: "d1", size: 5 }],
      });
      const blob = await read(s, (u) => u.definitions.readBlob("d1"));
      assert.equal(blob?.constructor, Uint8Array);
      assert.deepEqual([...blob!], [...bytes]);
      assert.equal(await read(s, (u) => u.definitions.readBlob("none")), undefined);
      assert.deepEqual(await write(s, (u) => u.definitions.prune()), { definitions: 1, blobs: 1 });
      assert.equal(await read(s, (u) => u.definitions.has("v9")), false);
    },
  ],
  ["publications keep one record per path, and pending ones are listed in order until removed", async (s) => {
    const record = (path: string, digest: string) => ({
      path,
      digest,
      artifactId: "a",
      revision: 1,
      runId: "r",
      at: "now",
    });
    await write(s, async (u) => {
      await u.publications.save(record("docs/b.md", "1"));
      await u.publications.save(record("docs/B.md", "2"));
      await u.publications.save(record("docs/b.md", "3"));
      await u.publications.addPending({
        artifactId: "a",
        revision: 2,
        runId: "r",
        job: { path: "docs/b.md" },
      });
      await u.publications.addPending({ artifactId: "a", revision: 1, runId: "r", job: null });
    });
    assert.equal((await read(s, (u) => u.publications.find("docs/b.md")))?.digest, "3");
    assert.equal(await read(s, (u) => u.publications.find("docs/none.md")), undefined);
    assert.deepEqual((await read(s, (u) => u.publications.list())).map((p) => p.path), [
      "docs/B.md",
      "docs/b.md",
    ]);
    assert.deepEqual(
      (await read(s, (u) => u.publications.listPending())).map((p) => [p.revision, p.job]),
      [[2, { path: "docs/b.md" }], [1, null]],
    );
    assert.equal(await write(s, (u) => u.publications.removePending("a", 2)), true);
    assert.equal(await write(s, (u) => u.publications.removePending("a", 2)), false);
    assert.deepEqual((await read(s, (u) => u.publications.listPending())).map((p) => p.revision), [1]);
  }],
  ["a unit that throws leaves nothing behind, and the next unit goes on", async (s) => {
    await assert.rejects(
      write(s, async (u) => {
        await u.runs.insert(storedRun("run_gone"));
        await u.runs.appendEvents("run_gone", [{ type: "run_started", at: "t" }]);
        throw new Error("gives up");
      }),
      /gives up/,
    );
    assert.equal(await read(s, (u) => u.runs.find("run_gone")), undefined);
    assert.deepEqual(await read(s, (u) => u.runs.timeline("run_gone")), []);
    await write(s, (u) => u.runs.insert(storedRun("run_kept")));
    assert.equal((await read(s, (u) => u.runs.find("run_kept")))?.runId, "run_kept");
  }],
];

Deno.test("storage contract: SQLite", async (t) => {
  for (const [name, body] of CASES) {
    await t.step(name, async () => {
      const storage = openSqliteStorage(":memory:");
      try {
        await body(storage);
      } finally {
        await storage.close();
      }
    });
  }
});

Deno.test("storage contract: PostgreSQL", async (t) => {
  await withPostgres(async (server) => {
    for (const [name, body] of CASES) {
      await t.step(name, async () => {
        const storage = await openPostgresStorage({
          url: await server.newDatabase(),
          user: "weft",
          project: "p",
        });
        try {
          await body(storage);
        } finally {
          await storage.close();
        }
      });
    }
  });
});
