/** Publish paths: the slug of an intent, the placeholders, and the paths refused before any Run fills them. */

import assert from "node:assert/strict";
import { fillPublishPath, fixedFolders, publishPathProblem, slugOf } from "../../src/engine/publish_path.ts";

Deno.test("slug: lowercase words joined by -, accents dropped, at most 48 characters, never empty", () => {
  assert.equal(slugOf("Add CSV export to reports"), "add-csv-export-to-reports");
  assert.equal(slugOf("Crème brûlée: v2.0 (draft)"), "creme-brulee-v2-0-draft");
  assert.equal(slugOf("../../.git/hooks"), "git-hooks");
  assert.equal(slugOf("✨ 🚀"), "run");
  const long = slugOf("one two three four five six seven eight nine ten eleven twelve");
  assert.ok(long.length <= 48 && !long.endsWith("-"), long);
  assert.equal(slugOf("x".repeat(100)), "x".repeat(48));
});

Deno.test("publish path: placeholders filled, fixed folders found, escapes refused", () => {
  const values = {
    flowName: "intent",
    stageName: "plan",
    runId: "run_1",
    slug: "csv",
    publishFolder: "docs/weft",
  };
  assert.equal(fillPublishPath("{publishFolder}/{slug}/{stageName}.md", values), "docs/weft/csv/plan.md");
  assert.deepEqual(fixedFolders("docs/specs/{slug}/x.md"), ["docs", "specs"]);
  assert.deepEqual(fixedFolders("notes.md"), []);
  assert.equal(publishPathProblem("docs/{flowName}/{runId}.md"), undefined);
  assert.match(publishPathProblem("docs\\x.md")!, /`\/` between folders/);
  assert.match(publishPathProblem("C:/x.md")!, /absolute/);
  assert.match(publishPathProblem("docs//x.md")!, /empty or `\.` segments/);
  assert.match(publishPathProblem("./x.md")!, /empty or `\.` segments/);
  assert.match(publishPathProblem(".Git/x.md")!, /\.git/);
  assert.match(publishPathProblem(".env.local.md")!, /\.env/);
});
