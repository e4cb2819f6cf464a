/**
 * Live Runs: how long a committed change takes to reach a subscribed client, against the bare echo round
 * trip measured in the same moments; and the soak with every session subscribed against the soak without.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import { ResourceUpdatedNotificationSchema } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { soak } from "../proof/soak.ts";
import { N, QUICK } from "./config.ts";
import { call, connect, echo } from "./clients.ts";
import { FIXTURE_FLOW } from "./fixture_run.ts";
import { summarize, timed } from "./measure.ts";
import { failedRow, log, ratioRow, reason, valueRow } from "./report.ts";
import { closeClient, withTimeout } from "./resources.ts";
import type { Started } from "./servers.ts";

/**
 * The notification row: a Run is cancelled on `/internal/mcp` and the time until an agent on `/mcp`,
 * subscribed to it, receives `notifications/resources/updated` is set against three bare echo calls in a row
 * (per call), timed right after.
 */
export async function benchNotification(weftServer: Started, bare: Client): Promise<void> {
  const metric = "commit → notification on another session";
  log(`notifications: ${N.runs} changes on /internal/mcp, each awaited as a notification on /mcp`);
  const cli = await connect(weftServer, "/internal/mcp");
  const agent = await connect(weftServer, "/mcp");
  try {
    let arrived: ((uri: string) => void) | undefined;
    agent.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => arrived?.(n.params.uri));
    const times: number[] = [];
    const echoes: number[] = [];
    for (let i = 0; i < N.warmup + N.runs; i++) {
      const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: FIXTURE_FLOW, intent: "bench" });
      const uri = `weft://runs/${run.runId}`;
      await withTimeout(agent.subscribeResource({ uri }), "subscribe");
      const ms = await timed(async () => {
        const notified = new Promise<void>((resolve) => arrived = (got) => got === uri && resolve());
        await Promise.all([
          call(cli, "cancel_run", { runId: run.runId }),
          withTimeout(notified, "notification"),
        ]);
      });
      await withTimeout(agent.unsubscribeResource({ uri }), "unsubscribe");
      if (i < N.warmup) continue;
      times.push(ms);
      echoes.push(
        await timed(async () => {
          for (let e = 0; e < 3; e++) await echo(bare);
        }) / 3,
      );
    }
    ratioRow("notificationLatency", metric, summarize(times), summarize(echoes), "bare echo round trip", 1.5);
  } catch (error) {
    failedRow("notificationLatency", metric, "≤ 1.5×", reason(error));
  } finally {
    await closeClient(agent);
    await closeClient(cli);
  }
}

/** The soak pair: the same seeded soak, unsubscribed and then with every session subscribed. */
export async function benchSubscribedSoak(): Promise<void> {
  const options = { sessions: 16, seconds: QUICK ? 4 : 10, seed: 7 };
  log(
    `soak: ${options.sessions} sessions for ${options.seconds} s, unsubscribed, then every session subscribed`,
  );
  try {
    const plain = await soak(options);
    const subscribed = await soak({ ...options, subscribe: true });
    for (const figures of [plain, subscribed]) {
      if (figures.violations.length) throw new Error(`soak violations: ${figures.violations.slice(0, 3)}`);
    }
    valueRow(
      "soakSubscribedCalls",
      "soak calls/s, every session subscribed",
      subscribed.opsPerSecond,
      plain.opsPerSecond,
      "unsubscribed soak",
      "calls/s",
    );
    valueRow(
      "soakSubscribedRss",
      "soak peak RSS, every session subscribed",
      Math.round(subscribed.rssPeakKiB / 1024),
      Math.round(plain.rssPeakKiB / 1024),
      "unsubscribed soak",
      "MiB",
    );
  } catch (error) {
    failedRow("soakSubscribed", "soak, every session subscribed", "—", reason(error));
  }
}
