/**
 * Memory at rest: a started service that answered one `status` and was then left quiet, against the bare
 * server left the same way after one `echo`. Both are started, used and left quiet side by side, so they rest
 * for the same seconds on the same machine.
 *
 * @module
 */

import { REST_SECONDS } from "./config.ts";
import { call, connect, echo } from "./clients.ts";
import { round } from "./measure.ts";
import { failedRow, log, valueRow } from "./report.ts";
import { closeClient, tempDir } from "./resources.ts";
import { startChild, type Started } from "./servers.ts";
import { residentKiB } from "../proof/memory.ts";

const METRIC = `resident memory after one call and ${REST_SECONDS} s quiet (memory at rest)`;

/** The memory-at-rest row. */
export async function benchMemoryAtRest(): Promise<void> {
  log(`memory at rest: weft serve and the bare server, one call each, then ${REST_SECONDS} s quiet`);
  let weft: Started | undefined;
  let bare: Started | undefined;
  try {
    const projectDir = await tempDir({ "README.md": "# bench\n" });
    [weft, bare] = await Promise.all([startChild("weft", projectDir, true), startChild("bare")]);
    const cli = await connect(weft, "/internal/mcp");
    await call(cli, "status");
    await closeClient(cli);
    const client = await connect(bare, "/mcp");
    await echo(client);
    await closeClient(client);
    await new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000));
    const mb = (kib: number) => round(kib / 1024, 1);
    valueRow(
      "memoryAtRest",
      METRIC,
      mb(residentKiB(weft.pid)),
      mb(residentKiB(bare.pid)),
      "bare server at rest",
      "MB",
      1.2,
    );
  } catch (error) {
    failedRow("memoryAtRest", METRIC, "≤ 1.2×", String(error));
  } finally {
    await weft?.stop();
    await bare?.stop();
  }
}
