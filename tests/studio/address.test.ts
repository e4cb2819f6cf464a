/**
 * Studio's addresses: every view's hash reads back as the route it was written from, filters left empty
 * are left out, and a hash Studio does not know is no route (the page then goes to the Runs waiting).
 */

import assert from "node:assert/strict";
import { formatRoute, HOME, parseRoute, type Route } from "../../src/studio/page/address.ts";

Deno.test("studio addresses: each view's hash reads back as the same route", () => {
  const routes: Route[] = [
    { view: "runs", status: "waiting", workflow: "", q: "", page: 1 },
    { view: "runs", status: "", workflow: "review", q: "fix the <b>login</b> & more", page: 7 },
    { view: "run", runId: "run_a/b?c" },
    { view: "start" },
    { view: "artifacts", workflow: "review", stage: "collect" },
    { view: "artifact", workflow: "review", stage: "collect", name: "art_1", from: 1, to: 2 },
    { view: "artifact", workflow: "review", stage: "collect", name: "art_1", from: undefined, to: undefined },
  ];
  for (const route of routes) assert.deepEqual(parseRoute(formatRoute(route)), route, formatRoute(route));
  assert.equal(formatRoute({ view: "runs", status: "waiting", workflow: "", q: "", page: 1 }), HOME);
  assert.equal(formatRoute({ view: "runs", status: "", workflow: "", q: "", page: 1 }), "#/runs");
});

Deno.test("studio addresses: unknown hashes are no route; bad page and revision numbers fall back", () => {
  for (const hash of ["", "#", "#/", "#/nope", "#/runs/a/b", "#/artifacts/a/b"]) {
    assert.equal(parseRoute(hash), undefined, hash);
  }
  assert.deepEqual(parseRoute("#/runs?page=0"), { view: "runs", status: "", workflow: "", q: "", page: 1 });
  assert.deepEqual(parseRoute("#/runs?page=x"), { view: "runs", status: "", workflow: "", q: "", page: 1 });
  assert.deepEqual(parseRoute("#/artifacts/f/s/n?from=-1&to=2.5"), {
    view: "artifact",
    workflow: "f",
    stage: "s",
    name: "n",
    from: undefined,
    to: undefined,
  });
});
