/** The crash loop's short form: five SIGKILLs of a busy service, with every invariant checked after each. */
import assert from "node:assert/strict";
import { crashLoop } from "./crash.ts";

Deno.test("crash loop: after 5 SIGKILLs nothing acknowledged is lost and every Run is sound", async () => {
  const figures = await crashLoop({ kills: 5, seed: 20240601, clients: 4, opsBeforeKill: [4, 24] });
  assert.deepEqual(figures.violations, []);
  assert.equal(figures.kills, 5);
  assert.ok(figures.runChecks > 0, "Runs were checked after the restarts");
  assert.ok(figures.acknowledgedCommits > 0 && figures.commitChecks >= figures.acknowledgedCommits);
});
