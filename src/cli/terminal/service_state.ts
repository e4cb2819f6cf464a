/**
 * How the terminal tells the service's state (`weft status`, `start`, `stop`): the report, as JSON or as a
 * line for people, and the way out of a state that needs recovery.
 *
 * @module
 */

import type { ServiceReport } from "../../client/observe.ts";
import { UNTRUSTED_FIX } from "../../weft_dir/trust.ts";
import { say } from "./screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** What to do about a service that needs recovery, for `reason` as observed. */
export function recoveryHint(reason: string): string {
  if (reason.startsWith("untrusted state")) return `move it aside: ${UNTRUSTED_FIX}`;
  return reason.includes("crashed")
    ? "`weft start` clears the leftovers safely (the old process is gone)"
    : "check the process named above; weft never signals a process it cannot verify";
}

/** Prints `value` under `--json`, else the line `human` (nothing when it is empty). */
export function printReport(json: boolean, value: ServiceReport, human: string): void {
  if (json) say(visibleJson(value));
  else if (human) say(human);
}
