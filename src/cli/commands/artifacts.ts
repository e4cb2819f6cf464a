/**
 * `weft artifacts`: what stages committed, one row per Artifact (metadata only), a page at a time.
 *
 * @module
 */

import type { ArtifactView } from "../../engine/views.ts";
import { parseCommand, UsageError } from "../args.ts";
import { hint, paint, printJson, relativeTime, table, usage } from "../format.ts";
import { withClient } from "./client.ts";
import { guarded } from "./failure.ts";
import { nextPageCommand, parseLimit } from "./paging.ts";

/** `weft artifacts` */
export const artifactsCommand = guarded("artifacts", async (args) => {
  const { common, values, positionals } = parseCommand(args, {
    flow: { type: "string" },
    stage: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
  });
  if (common.help) {
    return usage("artifacts [--flow NAME] [--stage NAME] [--limit N] [--cursor C] [--json]", HELP);
  }
  if (positionals.length) throw new UsageError("takes no arguments; filter with --flow and --stage");
  const query = {
    ...(values.flow !== undefined ? { flowName: values.flow } : {}),
    ...(values.stage !== undefined ? { stageName: values.stage } : {}),
    ...(values.limit !== undefined ? { limit: parseLimit(values.limit as string) } : {}),
    ...(values.cursor !== undefined ? { cursor: values.cursor } : {}),
  };
  const page = await withClient(
    common.projectDir,
    (client) => client.call<{ artifacts: ArtifactView[]; nextCursor?: string }>("list_artifacts", query),
  );
  if (common.json) {
    printJson(page);
    return 0;
  }
  if (!page.artifacts.length) {
    console.log("no Artifacts yet: a Run commits one when it completes a stage");
    return 0;
  }
  const now = new Date();
  console.log(table(
    ["ARTIFACT", "FLOW", "STAGE", "REV", "UPDATED", "RUN", "RECORD"],
    page.artifacts.map((a) => [
      paint("bold", a.artifactId),
      a.flowName,
      a.stageName,
      String(a.revision),
      relativeTime(a.updatedAt, now),
      a.runId,
      a.recordId,
    ]),
  ));
  const first = page.artifacts[0];
  console.log("\n" + hint("show one with", `weft artifact ${first.artifactId}`));
  if (page.nextCursor) console.log(hint("next page", nextPageCommand("artifacts", args, page.nextCursor)));
  return 0;
});

const HELP = `Lists Artifacts (the current committed output of each stage), without their data.

  --flow NAME    only this workflow's
  --stage NAME   only this stage's
  --limit N      at most N (1–200, default 50)
  --cursor C     the next page: the cursor printed by the previous page, with the same filters
  --json         print { "artifacts": ArtifactView[], "nextCursor"? }`;
