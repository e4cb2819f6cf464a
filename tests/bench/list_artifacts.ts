/**
 * `list_artifacts` first page from a store of 20,000 Artifacts against one of 100, both seeded through the
 * store module before the service starts.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import { Database } from "../../src/store/database.ts";
import { ArtifactStore } from "../../src/store/artifact_store.ts";
import { weftPaths } from "../../src/weft_dir/paths.ts";
import { N, SEED } from "./config.ts";
import { call, connect } from "./clients.ts";
import { alternate, round, summarize } from "./measure.ts";
import { failedRow, log, ratioRow, reason } from "./report.ts";
import { closeAllClients, tempDir } from "./resources.ts";
import { startChild, type Started } from "./servers.ts";

/**
 * Stores `count` Artifacts, each the current revision of a distinct (flowName, stageName) with its Record,
 * through the store module, in the project's `.weft/weft.db` (created and migrated when missing). Run it
 * before `weft serve` starts on the project. 100 stages per flow: `bench-flow-N` / `stage-M`.
 */
export async function seedArtifacts(projectDir: string, count: number): Promise<void> {
  const paths = weftPaths(projectDir);
  Deno.mkdirSync(paths.weftDir, { recursive: true, mode: 0o700 });
  const db = Database.open(paths.database);
  try {
    const store = new ArtifactStore(db);
    const at = new Date().toISOString();
    await db.transaction(async () => {
      for (let i = 0; i < count; i++) {
        const n = String(i).padStart(6, "0");
        await store.commit({
          artifactId: `art_bench${n}`,
          recordId: `rec_bench${n}`,
          runId: `run_bench${String(Math.floor(i / 100)).padStart(6, "0")}`,
          flowName: `bench-flow-${Math.floor(i / 100)}`,
          stageName: `stage-${i % 100}`,
          data: { summary: `seeded artifact ${i}`, items: [i, i + 1, i + 2] },
          answers: [],
          at,
        });
      }
    });
    const counts = await store.counts();
    if (counts.artifacts !== count) throw new Error(`seeded ${counts.artifacts} artifacts, wanted ${count}`);
  } finally {
    db.close();
  }
}

/** The `list_artifacts` row, and `status` on the same two stores for information. */
export async function benchListArtifacts(): Promise<void> {
  const metric = `list_artifacts first page, ${SEED.large} vs ${SEED.small} Artifacts`;
  log(`list_artifacts: seeding ${SEED.small} and ${SEED.large} Artifacts through the store`);
  const servers: Started[] = [];
  try {
    const smallDir = await tempDir();
    const largeDir = await tempDir();
    const seedStarted = performance.now();
    await seedArtifacts(smallDir, SEED.small);
    await seedArtifacts(largeDir, SEED.large);
    log(`  seeded in ${round((performance.now() - seedStarted) / 1000, 1)} s`);
    const small = await startChild("weft", smallDir, true);
    servers.push(small);
    const large = await startChild("weft", largeDir, true);
    servers.push(large);
    const a = await connect(large, "/internal/mcp");
    const b = await connect(small, "/internal/mcp");
    const page = async (client: Client, total: number) => {
      const result = await call<{ artifacts: unknown[]; nextCursor?: string }>(client, "list_artifacts", {});
      if (result.artifacts.length !== 50 || !result.nextCursor) {
        throw new Error(`expected a full first page of ${total}, got ${result.artifacts.length}`);
      }
    };
    for (let i = 0; i < 20; i++) await page(a, SEED.large), await page(b, SEED.small);
    const [largeTimes, smallTimes] = await alternate(
      N.listCalls,
      N.block,
      () => page(a, SEED.large),
      () => page(b, SEED.small),
    );
    // `status` reports counts of Artifacts and Records, so it reads the same stores: informational.
    for (let i = 0; i < 10; i++) await call(a, "status"), await call(b, "status");
    const [largeStatus, smallStatus] = await alternate(
      N.listCalls / 2,
      N.block,
      () => call(a, "status"),
      () => call(b, "status"),
    );
    ratioRow(
      "listArtifacts",
      metric,
      summarize(largeTimes),
      summarize(smallTimes),
      `${SEED.small} Artifacts`,
      1.5,
      { pageSize: 50 },
    );
    ratioRow(
      "statusLargeStore",
      `status with ${SEED.large} vs ${SEED.small} Artifacts`,
      summarize(largeStatus),
      summarize(smallStatus),
      `${SEED.small} Artifacts`,
      null,
    );
  } catch (error) {
    failedRow("listArtifacts", metric, "≤ 1.5×", reason(error));
  } finally {
    await closeAllClients();
    for (const server of servers) await server.stop();
  }
}
