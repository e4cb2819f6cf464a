/**
 * `weft record <id>`: one immutable Record: what a stage committed, by which Run, from which answers.
 *
 * @module
 */

import type { RecordView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { CommandFailure } from "../command_line/failure.ts";
import { hint, indent, paint, printJson, relativeTime } from "../terminal/format.ts";
import { withClient } from "../../client/weft_client.ts";
import { say } from "../terminal/screen.ts";

/** `weft record` */
export const recordCommand = defineCommand({
  name: "record",
  summary: "show one Record: what was committed, by which Run, from which answers",
  synopsis: "record <recordId>",
  description: `Shows one Record: the data a stage committed, the Run that committed it and the answers it
was committed from. Records never change.`,
  json: 'print { "record": RecordView }',
  async run({ positionals, projectDir, json }) {
    const [recordId, ...extra] = positionals;
    if (!recordId || extra.length) throw new UsageError("takes exactly one Record id (see `weft artifacts`)");
    const { record } = await withClient(
      projectDir,
      (client) => client.call<{ record: RecordView | null }>("get_record", { recordId }),
    );
    if (!record) {
      throw new CommandFailure(
        "NOT_FOUND",
        `no Record "${recordId}"`,
        "`weft artifacts` shows the Record of each Artifact",
      );
    }
    if (json) {
      printJson({ record });
      return EXIT.OK;
    }
    say([
      `${
        paint("bold", record.recordId)
      }  ${record.flowName}/${record.stageName}  revision ${record.revision}`,
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
    return EXIT.OK;
  },
});
