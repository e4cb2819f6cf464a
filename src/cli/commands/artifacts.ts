/**
 * `weft artifacts`: what stages committed, one row per Artifact (metadata only), a page at a time.
 *
 * @module
 */

import type { ArtifactView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { hint, paint, printJson, relativeTime, table } from "../terminal/format.ts";
import { withClient } from "../../client/weft_client.ts";
import { nextPageCommand, pagingOptions } from "../command_line/paging.ts";
import { say } from "../terminal/screen.ts";

/** `weft artifacts` */
export const artifactsCommand = defineCommand({
  name: "artifacts",
  summary: "list what stages committed",
  synopsis: "artifacts [--flow NAME] [--stage NAME] [--limit N] [--cursor C]",
  description: "Lists Artifacts (the current committed output of each stage), without their data.",
  options: {
    flow: { type: "string", arg: "NAME", help: "only this workflow's" },
    stage: { type: "string", arg: "NAME", help: "only this stage's" },
    ...pagingOptions("Artifacts"),
  },
  json: 'print { "artifacts": ArtifactView[], "nextCursor"? }',
  async run({ options, positionals, projectDir, json, args }) {
    if (positionals.length) throw new UsageError("takes no arguments; filter with --flow and --stage");
    const query = {
      ...(options.flow !== undefined ? { flowName: options.flow } : {}),
      ...(options.stage !== undefined ? { stageName: options.stage } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
    };
    const page = await withClient(
      projectDir,
      (client) => client.call<{ artifacts: ArtifactView[]; nextCursor?: string }>("list_artifacts", query),
    );
    if (json) {
      printJson(page);
      return EXIT.OK;
    }
    if (!page.artifacts.length) {
      say("no Artifacts yet: a Run commits one when it completes a stage");
      return EXIT.OK;
    }
    const now = new Date();
    say(table(
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
    say("\n" + hint("show one with", `weft artifact ${first.artifactId}`));
    if (page.nextCursor) say(hint("next page", nextPageCommand("artifacts", args, page.nextCursor)));
    return EXIT.OK;
  },
});
