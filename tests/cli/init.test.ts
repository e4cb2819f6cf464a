/**
 * `weft init`: what it scaffolds works in a user's own project (the workflow loads and runs end to end
 * through a real service, its `$schema` resolves to the schema written beside it), and it never destroys
 * anything: an existing workflow, a link, a bad name are refused with nothing written.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { scaffold } from "../../src/cli/scaffold/scaffold.ts";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import { readProjectSources } from "../../src/engine/workflow/source.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import TEMPLATE from "../../src/cli/scaffold/workflow_template.json" with { type: "json" };
import { runWeft, tempProject, WEFT, withServedProject } from "../support/service.ts";

const SCHEMA_TEXT = await Deno.readTextFile(new URL("../../schema/workflow.schema.json", import.meta.url));
const CONFIG_SCHEMA_TEXT = await Deno.readTextFile(new URL("../../schema/weft.schema.json", import.meta.url));

/** Runs `weft init ...args` in `cwd`. */
const init = (cwd: string, ...args: string[]) => runWeft(["init", ...args], { cwd });

/** Every file under `dir`, by relative path, with its content (symbolic links by their target). */
async function snapshot(dir: string, prefix = ""): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const path = join(prefix, entry.name);
    if (entry.isSymlink) files[path] = `-> ${await Deno.readLink(join(dir, path))}`;
    else if (entry.isDirectory) Object.assign(files, await snapshot(dir, path));
    else files[path] = await Deno.readTextFile(join(dir, path));
  }
  return files;
}

Deno.test("init: the template and every scaffold are valid against the published workflow schema", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(SCHEMA_TEXT));
  for (const manifest of [TEMPLATE, JSON.parse(scaffold("release-note")), JSON.parse(scaffold("a_b-c"))]) {
    assert.ok(validate(manifest), `${manifest.name}: ${JSON.stringify(validate.errors)}`);
  }
  assert.equal(TEMPLATE.$schema, "../workflow.schema.json");
  assert.equal(JSON.parse(scaffold("release-note")).title, "Release note");
});

Deno.test("init in an empty project: the workflow loads, its $schema resolves, and a Run of it completes", async () => {
  let printed = "";
  const setup = async (dir: string) => {
    const { code, stdout, stderr } = await init(dir, "release-note");
    assert.equal(code, 0, stderr);
    printed = stdout;
  };
  await withServedProject({ setup }, async (served) => {
    const cwd = served.projectDir;
    assert.match(printed, /created +workflows\/release-note\/workflow\.json/);
    assert.match(printed, /created +workflows\/workflow\.schema\.json/);
    assert.match(printed, new RegExp(`run it: ${WEFT} flow release-note --intent "what this Run is for"`));

    // `$schema` is resolved as an editor does: relative to the manifest's own folder.
    const manifestPath = join(cwd, "workflows/release-note/workflow.json");
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
    const schemaText = await Deno.readTextFile(join(dirname(manifestPath), manifest.$schema));
    assert.equal(schemaText, SCHEMA_TEXT);
    assert.equal(JSON.parse(schemaText).title, "weft workflow manifest");

    // Loaded as the service loads it, and nothing is reported about the schema beside it.
    const entries = readProjectSources(projectTree(await Deno.realPath(cwd))).map(loadWorkflow);
    assert.deepEqual(entries.map((entry) => [entry.name, entry.ok]), [["release-note", true]]);
    const flows = JSON.parse((await runWeft(["flows", "--json"], { cwd })).stdout).workflows;
    const listed = flows.filter((w: { source: string }) => w.source === "project");
    assert.equal(listed.length, 1, JSON.stringify(listed));
    assert.equal(listed[0].available, true);
    assert.equal(listed[0].ready, true);
    assert.equal(listed[0].reason, undefined);

    const started = await runWeft(["flow", "release-note", "--intent", "Notes for 1.2", "--json"], { cwd });
    assert.equal(started.code, 0, started.stderr);
    const runId = JSON.parse(started.stdout).run.runId;
    const answer = (goal: string) =>
      JSON.stringify([
        { questionId: "goal", isSkipped: false, answer: goal },
        { questionId: "notes", isSkipped: true },
      ]);
    const attach = (stdin: string) =>
      runWeft(["attach", runId, "--answer-json", "-", "--json"], { cwd, stdin });

    // A goal the check refuses comes back with the template's own message.
    const refused = await runWeft(["attach", runId, "--answer-json", "-"], { cwd, stdin: answer("no") });
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stdout, /check: Say the goal in 3 to 200 characters\./);
    const asked = await attach(answer("A one-page release note"));
    assert.equal(JSON.parse(asked.stdout).run.pendingAction.kind, "user_ask_confirmation");
    const done = await attach('{ "isConfirmed": true }');
    assert.equal(done.code, 0, done.stderr);
    assert.equal(JSON.parse(done.stdout).run.status, "completed");

    const artifacts = JSON.parse(
      (await runWeft(["artifacts", "--flow", "release-note", "--json"], { cwd })).stdout,
    ).artifacts;
    assert.deepEqual(artifacts.map((a: { stageName: string }) => a.stageName), ["brief"]);
  });
});

Deno.test("init gives weft.json a schema in the project: the $schema docs/models.md shows resolves and validates its example", async () => {
  const cwd = await tempProject();
  try {
    assert.equal((await init(cwd)).code, 0);
    const docs = await Deno.readTextFile(new URL("../../docs/models.md", import.meta.url));
    const example = JSON.parse(/```json\n(\{\n {2}"\$schema"[\s\S]*?)```/.exec(docs)![1]);
    assert.equal(example.$schema, "./workflows/weft.schema.json");
    const written = await Deno.readTextFile(join(cwd, example.$schema));
    assert.equal(written, CONFIG_SCHEMA_TEXT, "the schema weft itself publishes");
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(written));
    assert.ok(validate(example), JSON.stringify(validate.errors));
    assert.ok(!validate({ models: { default: { provider: "nobody", model: "m" } } }), "and it checks");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("init writes only workflows/: no .weft/, no service", async () => {
  const cwd = await tempProject();
  try {
    const { code, stdout } = await init(cwd, "notes", "--json");
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), {
      workflow: "notes",
      files: [
        { path: "workflows/notes/workflow.json", status: "created" },
        { path: "workflows/workflow.schema.json", status: "created" },
        { path: "workflows/weft.schema.json", status: "created" },
      ],
      next: 'weft flow notes --intent "what this Run is for"',
    });
    assert.deepEqual(Object.keys(await snapshot(cwd)).sort(), [
      "workflows/notes/workflow.json",
      "workflows/weft.schema.json",
      "workflows/workflow.schema.json",
    ]);
    const status = await runWeft(["status", "--json"], { cwd });
    assert.equal(status.code, 3, "init started no service");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("init refuses to overwrite a workflow, and a refusal writes nothing", async () => {
  const cwd = await tempProject({
    "workflows/notes/workflow.json": '{ "mine": true }',
    "workflows/workflow.schema.json": '{ "an": "old schema" }',
  });
  try {
    const before = await snapshot(cwd);
    const refused = await init(cwd, "notes", "--json");
    assert.equal(refused.code, 1);
    assert.deepEqual(JSON.parse(refused.stdout), {
      error: {
        code: "WORKFLOW_EXISTS",
        message: "workflows/notes/workflow.json already exists; it was left untouched",
        retryable: false,
        fix: "edit workflows/notes/workflow.json, or choose another name: weft init <name>",
      },
    });
    assert.equal(refused.stderr, "", "the error is printed once, on stdout");
    const told = await init(cwd, "notes");
    assert.match(told.stderr, /weft init: WORKFLOW_EXISTS: .*\n {2}fix: edit workflows\/notes/);
    assert.deepEqual(await snapshot(cwd), before, "the refusal changed nothing, not even the schema");

    const builtIn = await init(cwd, "intent", "--json");
    assert.equal(builtIn.code, 1);
    assert.equal(JSON.parse(builtIn.stdout).error.code, "WORKFLOW_EXISTS");
    assert.match(JSON.parse(builtIn.stdout).error.message, /"intent" is a workflow built into weft/);
    assert.deepEqual(await snapshot(cwd), before);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("init refuses a name that is no workflow id, with a usage error and nothing written", async () => {
  const cwd = await tempProject();
  try {
    for (const name of ["Release", "release note", "9lives", "../up", "a--b", "notes/"]) {
      const { code, stdout } = await init(cwd, name, "--json");
      assert.equal(code, 2, name);
      const { error } = JSON.parse(stdout);
      assert.equal(error.code, "USAGE", name);
      assert.match(error.message, /is not a workflow name: use a lowercase identifier such as release-note/);
      assert.equal(error.fix, "see `weft init --help`");
    }
    const two = await init(cwd, "one", "two", "--json");
    assert.equal(two.code, 2);
    assert.match(JSON.parse(two.stdout).error.message, /at most one workflow name/);
    assert.deepEqual(await snapshot(cwd), {});
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("init rewrites the schema only when it differs, and says which it did", async () => {
  const cwd = await tempProject({
    "workflows/workflow.schema.json": '{ "from": "an older weft" }',
    "workflows/weft.schema.json": CONFIG_SCHEMA_TEXT,
  });
  try {
    const updated = await init(cwd, "--json");
    assert.equal(updated.code, 0);
    assert.deepEqual(JSON.parse(updated.stdout), {
      workflow: null,
      files: [
        { path: "workflows/workflow.schema.json", status: "updated" },
        { path: "workflows/weft.schema.json", status: "unchanged" },
      ],
      next: "weft init NAME",
    });
    assert.equal(await Deno.readTextFile(join(cwd, "workflows/workflow.schema.json")), SCHEMA_TEXT);
    const { mtime } = await Deno.stat(join(cwd, "workflows/workflow.schema.json"));

    const unchanged = await init(cwd);
    assert.equal(unchanged.code, 0);
    assert.match(
      unchanged.stdout,
      /unchanged workflows\/workflow\.schema\.json +already weft [\d.]+'s schema/,
    );
    assert.match(unchanged.stdout, new RegExp(`scaffold a workflow: ${WEFT} init NAME`));
    assert.deepEqual((await Deno.stat(join(cwd, "workflows/workflow.schema.json"))).mtime, mtime);

    const doctor = await runWeft(["doctor", "--json"], { cwd });
    const schema = JSON.parse(doctor.stdout).findings.find((f: { check: string }) => f.check === "schema");
    assert.equal(schema.state, "ok");
    await Deno.writeTextFile(join(cwd, "workflows/workflow.schema.json"), "{}");
    const stale = await runWeft(["doctor", "--json"], { cwd });
    const note = JSON.parse(stale.stdout).findings.find((f: { check: string }) => f.check === "schema");
    assert.equal(note.state, "note");
    assert.match(note.message, /differs from weft [\d.]+'s/);
    assert.equal(note.fix, "weft init  (rewrites only the schemas that differ)");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("init writes through no symbolic link: a cloned repository cannot aim it elsewhere", async () => {
  const cwd = await tempProject({ "elsewhere/target.txt": "precious" });
  try {
    await Deno.mkdir(join(cwd, "workflows"));
    await Deno.symlink(join(cwd, "elsewhere/target.txt"), join(cwd, "workflows/workflow.schema.json"));
    const before = await snapshot(cwd);
    const linked = await init(cwd, "notes", "--json");
    assert.equal(linked.code, 1);
    const { error } = JSON.parse(linked.stdout);
    assert.equal(error.code, "OUTPUT_UNWRITABLE");
    assert.equal(
      error.message,
      "workflows/workflow.schema.json is a symbolic link; weft init wrote nothing there",
    );
    assert.match(error.fix, /^move workflows\/workflow\.schema\.json aside, then run weft init again$/);
    assert.deepEqual(await snapshot(cwd), before);

    await Deno.remove(join(cwd, "workflows"), { recursive: true });
    await Deno.symlink(join(cwd, "elsewhere"), join(cwd, "workflows"));
    const folder = await init(cwd, "notes", "--json");
    assert.equal(
      JSON.parse(folder.stdout).error.message,
      "workflows is a symbolic link, not a folder; " +
        "weft init wrote nothing there",
    );
    assert.deepEqual(Object.keys(await snapshot(cwd)).sort(), ["elsewhere/target.txt", "workflows"]);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("init without a name leaves out the manifest's large schema until the project has a workflow of its own", async () => {
  const cwd = await tempProject();
  try {
    const bare = await init(cwd, "--json");
    assert.equal(bare.code, 0, bare.stderr);
    assert.deepEqual(JSON.parse(bare.stdout).files, [{
      path: "workflows/weft.schema.json",
      status: "created",
    }]);
    assert.equal(await Deno.stat(join(cwd, "workflows/workflow.schema.json")).catch(() => null), null);

    await Deno.mkdir(join(cwd, "workflows/mine"), { recursive: true });
    await Deno.writeTextFile(join(cwd, "workflows/mine/workflow.json"), "{}");
    const own = await init(cwd, "--json");
    assert.deepEqual(JSON.parse(own.stdout).files, [
      { path: "workflows/workflow.schema.json", status: "created" },
      { path: "workflows/weft.schema.json", status: "unchanged" },
    ]);
    assert.equal(await Deno.readTextFile(join(cwd, "workflows/workflow.schema.json")), SCHEMA_TEXT);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
