/**
 * What `weft doctor` says of ending a command step's processes on this system: everywhere its process group
 * ends with it; where processes can be found by their environment (Linux), those that left the group or
 * its session too.
 *
 * @module
 */

import { canFindByEnvironment } from "../../lib/tagged_processes.ts";
import type { Finding } from "./finding.ts";

/** Whether a command step's processes that leave its process group are ended with it here. */
export function processFinding(): Finding {
  if (canFindByEnvironment()) {
    return {
      check: "processes",
      state: "ok",
      message: "a command step's processes end with it, those that left its process group or session too " +
        "(found by WEFT_COMMAND_TAG in their environment)",
    };
  }
  return {
    check: "processes",
    state: "note",
    message: "on this system weft ends a command step's process group only: a process it started that " +
      "leaves the group (setsid, a daemon) runs on after the step ends",
    fix: "end such processes yourself, or keep them in the command's process group",
  };
}
