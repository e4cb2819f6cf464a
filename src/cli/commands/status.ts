/**
 * `weft status`: whether the project's service runs (`running`), does not (`offline`), or left state that
 * needs recovery, and why.
 *
 * @module
 */

import { observeService } from "../../client/observe.ts";
import { noArguments } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { hint } from "../terminal/format.ts";
import { recoveryHint } from "../terminal/service_state.ts";
import { say } from "../terminal/screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** `weft status` */
export const statusCommand = defineCommand({
  name: "status",
  summary: "say whether the service runs: running, offline or needs recovery",
  synopsis: "status",
  description: "Says whether the service of the project runs, and why not.",
  json: 'print { "state": running|offline|needs_recovery, "reason", "url"?, "pid"?, "instanceId"? }',
  notes: "Exit codes: 0 running, 3 offline, 4 needs recovery.",
  async run({ projectDir, positionals, json }) {
    noArguments(positionals);
    const report = await observeService(projectDir);
    if (json) say(visibleJson(report));
    else if (report.state === "running") {
      say(`running  ${report.url}  pid ${report.pid}  instance ${report.instanceId}`);
    } else if (report.state === "offline") {
      say(`offline  ${report.reason}\n  ${hint("start it with", "weft start")}`);
    } else say(`needs recovery  ${report.reason}\n  ${recoveryHint(report.reason)}`);
    return report.state === "running"
      ? EXIT.OK
      : report.state === "offline"
      ? EXIT.OFFLINE
      : EXIT.NEEDS_RECOVERY;
  },
});
