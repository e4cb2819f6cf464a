/**
 * `weft doctor` says whether a command step's processes that leave its process group end with it on this
 * system: on Linux they do (found by the tag in their environment); elsewhere it says they run on.
 */
import assert from "node:assert/strict";
import { COMMAND_TAG } from "../../src/commands/process_group.ts";
import { runWeft, tempProject } from "../support/service.ts";

Deno.test("doctor says whether processes that leave a command's group end with it here", async () => {
  const dir = await tempProject();
  try {
    const { stdout } = await runWeft(["doctor", "--json", "--project", dir]);
    const finding = JSON.parse(stdout).findings.find((f: { check: string }) => f.check === "processes");
    if (Deno.build.os === "linux") {
      assert.equal(finding.state, "ok");
      assert.match(finding.message, new RegExp(`left its process group or session too .*${COMMAND_TAG}`));
    } else {
      assert.equal(finding.state, "note");
      assert.match(finding.message, /process group only/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
