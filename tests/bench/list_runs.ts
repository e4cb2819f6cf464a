/**
 * `status` and `list_runs` first page from a store of 20,000 Runs against one of 100, both seeded through
 * the store module before the service starts: both should cost the same whatever the store holds.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunState } from "../../src/engine/run_state.ts";
import { Database } from "../../src/store/database.ts";
import { RunStore } from "../../src/store/run_store.ts";
import { weftPaths } from "../../src/weft_dir/paths.ts";
import { N, SEED } from "./config.ts";
import { call, connect } from "./clients.ts";
import { alternate, summarize } from "./measure.ts";
import { failedRow, log, ratioRow, reason } from "./report.ts";
import { closeAllClients, tempDir } from "./resources.ts";
import { startChild, type Started } from "./servers.ts";

const STATUSES = ["completed", "failed", "cancelled", "completed", "waiting"] as const;

/**
 * Stores `count` Runs of a human-only flow through the store module, in the project's `.weft/weft.db`; the
 * waiting ones wait for a person, so a start leaves them as they are.
 */
export async function seedRuns(projectDir: string, count: number): Promise<void> {
  const paths = weftPaths(projectDir);
  Deno.mkdirSync(paths.weftDir, { recursive: true, mode: 0o700 });
  const db = Database.open(paths.database);
  try {
    const store = new RunStore(db);
    const at = new Date().toISOString();
    await db.transaction(async () => {
      for (let i = 0; i < count; i++) {
        const status = STATUSES[i % STATUSES.length];
        const run: RunState = {
          runId: `run_bench${String(i).padStart(6, "0")}`,
          flowName: `bench-flow-${i % 10}`,
          intent: `seeded run ${i}`,
          status,
          source: "cli",
          agentExecutor: "service",
          stageName: "collect",
          stepName: "ask",
          state: { notes: [] },
          stageAnswers: [],
          visits: { "collect/ask": 1 },
          ...(status === "waiting"
            ? {
              pendingAction: {
                id: `act_${i}`,
                kind: "user_ask_confirmation",
                request: { context: "ok?" },
                createdAt: at,
              },
            }
            : {}),
          createdAt: at,
          updatedAt: at,
        };
        await store.insert(run);
      }
    });
  } finally {
    db.close();
  }
}

/** The `status` and `list_runs` rows: 20,000 against 100 stored Runs, calls alternating between the two. */
export async function benchListRuns(): Promise<void> {
  const statusMetric = `status with ${SEED.large} vs ${SEED.small} Runs`;
  const listMetric = `list_runs first page, ${SEED.large} vs ${SEED.small} Runs`;
  log(`list_runs and status: seeding ${SEED.small} and ${SEED.large} Runs through the store`);
  const servers: Started[] = [];
  try {
    const smallDir = await tempDir();
    const largeDir = await tempDir();
    await seedRuns(smallDir, SEED.small);
    await seedRuns(largeDir, SEED.large);
    const small = await startChild("weft", smallDir, true);
    servers.push(small);
    const large = await startChild("weft", largeDir, true);
    servers.push(large);
    const a = await connect(large, "/internal/mcp");
    const b = await connect(small, "/internal/mcp");
    const page = async (client: Client) => {
      const result = await call<{ runs: unknown[]; nextCursor?: string }>(client, "list_runs", {});
      if (result.runs.length !== 50 || !result.nextCursor) {
        throw new Error(`a short first page: ${result.runs.length}`);
      }
    };
    for (let i = 0; i < 20; i++) {
      await page(a), await page(b), await call(a, "status"), await call(b, "status");
    }
    const [largeStatus, smallStatus] = await alternate(
      N.listCalls,
      N.block,
      () => call(a, "status"),
      () => call(b, "status"),
    );
    const [largePages, smallPages] = await alternate(N.listCalls, N.block, () => page(a), () => page(b));
    const label = `${SEED.small} Runs`;
    ratioRow("statusRuns", statusMetric, summarize(largeStatus), summarize(smallStatus), label, 1.2);
    ratioRow("listRuns", listMetric, summarize(largePages), summarize(smallPages), label, 1.2, {
      pageSize: 50,
    });
  } catch (error) {
    failedRow("statusRuns", statusMetric, "≤ 1.2×", reason(error));
    failedRow("listRuns", listMetric, "≤ 1.2×", reason(error));
  } finally {
    await closeAllClients();
    for (const server of servers) await server.stop();
  }
}
