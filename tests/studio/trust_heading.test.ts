/** The trust notice's heading names what asks for trust: weft.json, the workflows' commands, or both. */

import assert from "node:assert/strict";
import { trustHeading } from "../../src/studio/page/trust_heading.ts";

const step = { workflow: "check", stage: "verify", step: "run", run: ["make"], env: [] };

Deno.test("studio trust: a project whose workflows alone ask to run commands is not said to have a weft.json", () => {
  assert.equal(
    trustHeading({ roles: [], content: { commandSteps: [step] } }),
    "This project's workflow commands are not trusted",
  );
});

Deno.test("studio trust: weft.json's models or commands are named as weft.json, with the workflows' when both ask", () => {
  assert.equal(trustHeading({ roles: [{}], content: {} }), "This project's weft.json is not trusted");
  assert.equal(
    trustHeading({ roles: [], content: { commands: { test: ["make"] } } }),
    "This project's weft.json is not trusted",
  );
  assert.equal(
    trustHeading({ roles: [], content: { commands: { test: ["make"] }, commandSteps: [step] } }),
    "This project's weft.json and workflow commands are not trusted",
  );
});

Deno.test("studio trust: workflows that ask to change files are named as such, beside whatever else asks", () => {
  const edits = { workflow: "fix", stage: "change", step: "edit", tools: ["write_project_file"] };
  assert.equal(
    trustHeading({ roles: [], content: { editSteps: [edits] } }),
    "This project's workflow file edits are not trusted",
  );
  assert.equal(
    trustHeading({ roles: [{}], content: { commandSteps: [step], editSteps: [edits] } }),
    "This project's weft.json, workflow commands and workflow file edits are not trusted",
  );
});
