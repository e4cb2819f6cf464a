/**
 * A published file a person edited, seen from the terminal: `weft run` says the commit left it alone and
 * why, `weft artifact` names the file and `weft doctor` notes the edit, against a real service.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { answer } from "../agent/support.ts";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { publishedNotes, workflowFiles } from "../support/workflows.ts";

Deno.test("weft run, artifact and doctor say a published file was edited and left as it is", async () => {
  const files = workflowFiles(publishedNotes({ path: "docs/notes.md" }));
  await withServedProject({ files }, async (served) => {
    const ide = await mcpClient(served, "/mcp");
    const commit = async (title: string): Promise<RunView> => {
      let run = (await call<{ run: RunView }>(ide, "flow", { flowName: "notes", intent: "Notes" })).run;
      run = await answer(ide, run, [{ questionId: "title", isSkipped: false, answer: title }]);
      return await answer(ide, run, { isConfirmed: true });
    };
    const cwd = served.projectDir;
    try {
      await commit("First");
      const doctor = JSON.parse((await runWeft(["doctor", "--json"], { cwd })).stdout);
      assert.deepEqual(doctor.findings.find((f: { check: string }) => f.check === "publications"), {
        check: "publications",
        state: "ok",
        message: "the published file is as weft wrote it",
      });

      const file = `${cwd}/docs/notes.md`;
      await Deno.writeTextFile(file, (await Deno.readTextFile(file)) + "\nA person's note.\n");
      const second = await commit("Second");
      assert.equal(second.status, "completed");

      const shown = await runWeft(["run", second.runId], { cwd });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /publish_skipped .*docs\/notes\.md was changed since weft wrote revision 1/);
      const artifact = await runWeft(["artifact", "--flow", "notes", "--stage", "collect"], { cwd });
      assert.match(
        artifact.stdout,
        /file +docs\/notes\.md \(not written: docs\/notes\.md was changed since weft wrote revision 1/,
      );
      const noted = JSON.parse((await runWeft(["doctor", "--json"], { cwd })).stdout);
      assert.deepEqual(noted.findings.find((f: { check: string }) => f.check === "publications"), {
        check: "publications",
        state: "note",
        message: "docs/notes.md was edited since weft wrote revision 1; weft leaves it as it is",
        fix:
          "`weft revise docs/notes.md` brings the edit back as the next revision once you confirm it; or delete the " +
          "file to let weft write it again",
      });
    } finally {
      await closeClient(ide);
    }
  });
});
