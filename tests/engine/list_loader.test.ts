/** The loader's refusals of list stages: each names the file and the pointer of what is wrong. */
import assert from "node:assert/strict";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { listFlow } from "../support/list_workflows.ts";
import { reviewManifest } from "../support/workflows.ts";
import type { Json } from "../support/json.ts";

type Manifest = Record<string, Json> & { stages: Record<string, Record<string, Json>> };

function reasonOf(manifest: unknown): string {
  const entry = loadWorkflow(embeddedSource("review", manifest, {}));
  assert.equal(entry.ok, false, "expected a loader error");
  return entry.ok ? "" : entry.reason;
}

function list(edit: (manifest: Manifest) => void): Manifest {
  const manifest = structuredClone(listFlow([{ id: "a" }])) as unknown as Manifest;
  edit(manifest);
  return manifest;
}

const at = "embedded/review/workflow.json#/stages/items";

Deno.test("a list stage as the tests write it loads", () => {
  const entry = loadWorkflow(embeddedSource("review", listFlow([]), {}));
  assert.ok(entry.ok, entry.ok ? "" : entry.reason);
});

Deno.test("loader: a list stage's step that ends the stage is refused: steps end items", () => {
  const manifest = list((m) => {
    (m.stages.items.steps as Record<string, Record<string, Json>>).again.routes = {
      valid: "work",
      invalid: { endStage: "finished" },
    };
  });
  assert.match(reasonOf(manifest), new RegExp(`${at}/steps: a list stage's steps end items`));
});

Deno.test("loader: a list stage must route `finished`, and `stopped` when a step can stop it", () => {
  const manifest = list((m) => {
    m.stages.items.routes = {};
  });
  const reason = reasonOf(manifest);
  assert.match(reason, new RegExp(`${at}/routes: stage outcome "finished" has no route`));
  assert.match(reason, new RegExp(`${at}/routes: stage outcome "stopped" has no route`));
  assert.match(reason, /\/stages\/summary: unreachable from the entry/);
});

Deno.test("loader: ending an item outside a list stage, or comparing with an item's start, is refused", () => {
  const manifest = structuredClone(reviewManifest()) as unknown as Manifest;
  const steps = manifest.stages.collect.steps as Record<string, Record<string, Json>>;
  const first = Object.keys(steps)[0];
  steps[first].routes = Object.fromEntries(
    Object.keys(steps[first].routes as Record<string, Json>).map((outcome) => [outcome, { endItem: "done" }]),
  );
  steps.compare = { kind: "changes", since: "item", resultTo: "/changes", routes: {} };
  const reason = reasonOf(manifest);
  assert.match(reason, /#\/stages\/collect\/steps: only a list stage \(with `forEach`\) can end an item/);
  assert.match(
    reason,
    /#\/stages\/collect\/steps\/compare\/since: only a list stage has items to compare with/,
  );
});

Deno.test("loader: a list reading the Run's input needs the workflow to declare one; verifyStep names a command step", () => {
  const manifest = list((m) => {
    m.stages.items.forEach = {
      from: "input",
      items: "/plan/tasks",
      as: "/item",
      inputTo: "/input",
      verifyStep: "work",
    };
  });
  const reason = reasonOf(manifest);
  assert.match(
    reason,
    new RegExp(`${at}/forEach/from: the workflow declares no \`input\` to read items from`),
  );
  assert.match(reason, new RegExp(`${at}/forEach/inputTo: the workflow declares no \`input\` to write`));
  assert.match(reason, new RegExp(`${at}/forEach/verifyStep: no command step "work" in this stage`));
});

Deno.test("loader: a list stage without `as`, or an unknown item end, is refused by the manifest's shape", () => {
  const manifest = list((m) => {
    delete (m.stages.items.forEach as Record<string, Json>).as;
    (m.stages.items.steps as Record<string, Record<string, Json>>).done.routes = {
      valid: { endItem: "finished" },
      invalid: "skip",
    };
  });
  const reason = reasonOf(manifest);
  assert.match(reason, new RegExp(`${at}/forEach/as: missing`));
  assert.match(reason, /steps\/done\/routes\/valid: a step route is the name of a step, .*endItem/);
});
