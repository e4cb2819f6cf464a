/**
 * `weft record <id>`: one immutable Record: what a stage committed, by which Run, from which answers.
 *
 * @module
 */

import type { RecordView } from "../../engine/views.ts";
import { parseCommand, UsageError } from "../args.ts";
import { hint, indent, paint, printJson, relativeTime, usage } from "../format.ts";
import { withClient } from "./client.ts";
import { CommandFailure, guarded } from "./failure.ts";

/** `weft record` */
export const recordCommand = guarded("record", async (args) => {
  const { common, positionals } = parseCommand(args);
  if (common.help) return usage("record <recordId> [--json]", HELP);
  const [recordId, ...extra] = positionals;
  if (!recordId || extra.length) throw new UsageError("takes exactly one Record id (see `weft artifacts`)");
  const { record } = await withClient(
    common.projectDir,
    (client) => client.call<{ record: RecordView | null }>("get_record", { recordId }),
  );
  if (!record) {
    throw new CommandFailure(
      "NOT_FOUND",
      `no Record "${recordId}"`,
      "`weft artifacts` shows the Record of each Artifact",
    );
  }
  if (common.json) {
    printJson({ record });
    return 0;
  }
  console.log([
    `${paint("bold", record.recordId)}  ${record.flowName}/${record.stageName}  revision ${record.revision}`,
    `  ${paint("dim", "artifact")}  ${record.artifactId}`,
    `  ${paint("dim", "run")}       ${record.runId}`,
    `  ${paint("dim", "created")}   ${relativeTime(record.createdAt)}`,
    "",
    paint("bold", "Data"),
    indent(typeof record.data === "string" ? record.data : JSON.stringify(record.data, null, 2)),
    "",
    paint("bold", "Answers"),
    indent(record.answers.length ? JSON.stringify(record.answers, null, 2) : "(none)"),
    "",
    hint("the Run behind it", `weft run ${record.runId}`),
  ].join("\n"));
  return 0;
});

const HELP = `Shows one Record: the data a stage committed, the Run that committed it and the answers it
was committed from. Records never change.

  --json  print { "record": RecordView }`;
