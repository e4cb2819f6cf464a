/**
 * A command step's folder stays inside the project: absolute, `..` and a folder reached through a symbolic
 * link are refused when the workflow loads, the reason naming the file and the pointer; a plain subfolder
 * loads. A project command name and an argument vector are the two shapes of `run`.
 */
import assert from "node:assert/strict";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import { readProjectSources } from "../../src/engine/workflow/source.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import { tempProject } from "../support/service.ts";
import { commandFiles } from "./support.ts";

/** Loads the project's one workflow `w` with `step`, after `setup`; its reason, or "" when it loads. */
async function loadReason(step: Record<string, unknown>, setup?: (dir: string) => Promise<void>) {
  const dir = await tempProject({ ...commandFiles("w", step), "inside/keep.txt": "" });
  try {
    await setup?.(dir);
    const [source] = readProjectSources(projectTree(Deno.realPathSync(dir)));
    const entry = loadWorkflow(source);
    return entry.ok ? "" : entry.reason;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const AT = "workflows/w/workflow.json#/stages/verify/steps/run/cwd";

Deno.test("a command's cwd inside the project loads; absolute, `..` and through a symlink are refused at load", async () => {
  const run = ["true"];
  assert.equal(await loadReason({ run, cwd: "inside" }), "");
  assert.equal(await loadReason({ run: "test" }), "");
  assert.equal(
    await loadReason({ run, cwd: "/tmp" }),
    `${AT}: must be a folder relative to the project root, not an absolute path`,
  );
  assert.equal(await loadReason({ run, cwd: "inside/../.." }), `${AT}: must not leave the project (\`..\`)`);
  const outside = await Deno.makeTempDir();
  try {
    assert.equal(
      await loadReason({ run, cwd: "link/sub" }, (dir) => Deno.symlink(outside, `${dir}/link`)),
      `${AT}: link/sub passes through a symbolic link, which may lead anywhere`,
    );
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
  assert.equal(await loadReason({ run, cwd: "nowhere" }), `${AT}: nowhere is not a folder of the project`);
});

Deno.test("a command step's run is an argument vector or a project command name, nothing else", async () => {
  assert.match(await loadReason({ run: [] }), /steps\/run\/run/);
  assert.match(await loadReason({ run: "npm test" }), /steps\/run\/run/);
  assert.match(await loadReason({ run: ["true"], env: ["NOT-A-NAME"] }), /steps\/run\/env\/0/);
  assert.match(await loadReason({ run: ["true"], timeoutSeconds: 3601 }), /steps\/run\/timeoutSeconds/);
});
