/**
 * `weft init [NAME]`: scaffolds `workflows/NAME/workflow.json` from a template that runs as it is, and
 * writes the JSON Schemas of the manifest (`workflows/workflow.schema.json`, where the template's
 * `"$schema"` points) and of `weft.json` (`workflows/weft.schema.json`), so that an editor validates both in
 * the user's own project (the files are `src/cli/scaffold/`'s). It only writes files: no service is needed,
 * and `.weft/` is left alone.
 *
 * @module
 */

import { join, relative } from "node:path";
import { replaceFile } from "../../lib/replace_file.ts";
import { VERSION } from "../../version.ts";
import { isEmbeddedWorkflow, isWorkflowName } from "../../service/workflow_names.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { CommandFailure, writeFailureReason } from "../command_line/failure.ts";
import { hint, paint, printJson } from "../terminal/format.ts";
import {
  CONFIG_SCHEMA_PATH,
  PROJECT_SCHEMAS,
  type ProjectSchema,
  scaffold,
  SCHEMA_PATH,
} from "../scaffold/scaffold.ts";
import { say } from "../terminal/screen.ts";

/** What became of one file. */
export type FileStatus = "created" | "updated" | "unchanged";

/** `weft init` */
export const initCommand = defineCommand({
  name: "init",
  summary: "scaffold a workflow in workflows/NAME/, with the JSON Schema editors validate it against",
  synopsis: "init [NAME]",
  description: `Writes workflows/NAME/workflow.json, a workflow that runs as it is (it asks a question,
checks the answer, has it confirmed and commits it; no model needed), and
${SCHEMA_PATH}, the JSON Schema its "$schema" points to, so that your editor
validates and completes the manifest; and ${CONFIG_SCHEMA_PATH}, the schema of
weft.json (point its "$schema" at "./${CONFIG_SCHEMA_PATH}"). NAME is a lowercase
identifier such as release-note. An existing workflow is never overwritten.

A schema file is rewritten only when it differs from this weft's, and init says so. weft never
rewrites it by itself: after upgrading weft, run \`weft init\` (without NAME, it only refreshes the
schema, and writes the manifest's schema only once the project has a workflow of its own);
\`weft doctor\` notes a schema that differs. init needs no service and leaves .weft/ alone.`,
  json: 'print { "workflow": NAME|null, "files": [{ path, status: created|updated|unchanged }], "next" }',
  async run({ positionals, projectDir, json }) {
    if (positionals.length > 1) {
      throw new UsageError(`takes at most one workflow name, not ${positionals.length} arguments`);
    }
    const name = positionals[0];
    if (name !== undefined) checkName(name);
    const plan = await planWrites(projectDir, name);
    const files: { path: string; status: FileStatus }[] = [];
    // The schemas first: a workflow file that exists is one whose "$schema" resolves.
    for (const [index, schema] of PROJECT_SCHEMAS.entries()) {
      const status = plan.schemas[index];
      if (status === "not needed") continue;
      if (status !== "unchanged") await writeSchema(projectDir, schema);
      files.push({ path: schema.path, status });
    }
    if (name !== undefined) {
      files.unshift({ path: await writeWorkflow(projectDir, name), status: "created" });
    }
    const next = name === undefined ? "weft init NAME" : `weft flow ${name} --intent "what this Run is for"`;
    if (json) printJson({ workflow: name ?? null, files, next });
    else report(files, name, next, projectDir);
    return EXIT.OK;
  },
});

function checkName(name: string): void {
  if (!isWorkflowName(name)) {
    throw new UsageError(
      `"${name}" is not a workflow name: use a lowercase identifier such as release-note ` +
        "(letters and digits, words joined by - or _)",
    );
  }
  if (isEmbeddedWorkflow(name)) {
    throw new CommandFailure(
      "WORKFLOW_EXISTS",
      `"${name}" is a workflow built into weft; a project workflow cannot take its name`,
      "choose another name: weft init <name>",
    );
  }
}

/**
 * Checks everything before writing anything, so that a refusal leaves the project as it was. weft writes
 * through no symbolic link: a cloned repository could point one anywhere.
 */
async function planWrites(
  projectDir: string,
  name?: string,
): Promise<{ schemas: (FileStatus | "not needed")[] }> {
  await expectFolder(projectDir, "workflows");
  if (name !== undefined) {
    const folder = `workflows/${name}`;
    await expectFolder(projectDir, folder);
    if (await kindOf(join(projectDir, folder, "workflow.json")) !== "missing") {
      throw new CommandFailure(
        "WORKFLOW_EXISTS",
        `${folder}/workflow.json already exists; it was left untouched`,
        `edit ${folder}/workflow.json, or choose another name: weft init <name>`,
      );
    }
  }
  const schemas: (FileStatus | "not needed")[] = [];
  for (const { path, text } of PROJECT_SCHEMAS) {
    const kind = await kindOf(join(projectDir, path));
    if (kind !== "missing" && kind !== "file") {
      throw unwritable(path, `is a ${kind}`, `move ${path} aside, then run weft init again`);
    }
    // The manifest's schema is large: a project that runs only the built-in workflows does without it.
    if (
      path === SCHEMA_PATH && kind === "missing" && name === undefined && !await hasOwnWorkflow(projectDir)
    ) {
      schemas.push("not needed");
      continue;
    }
    const current = kind === "file" ? await Deno.readTextFile(join(projectDir, path)) : undefined;
    schemas.push(current === undefined ? "created" : current === text ? "unchanged" : "updated");
  }
  return { schemas };
}

/** Whether `workflows/` holds a workflow of the project's own (a folder with a `workflow.json`). */
async function hasOwnWorkflow(projectDir: string): Promise<boolean> {
  try {
    for await (const entry of Deno.readDir(join(projectDir, "workflows"))) {
      if (
        entry.isDirectory &&
        await kindOf(join(projectDir, "workflows", entry.name, "workflow.json")) === "file"
      ) {
        return true;
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return false;
}

async function expectFolder(projectDir: string, path: string): Promise<void> {
  const kind = await kindOf(join(projectDir, path));
  if (kind !== "missing" && kind !== "folder") {
    throw unwritable(path, `is a ${kind}, not a folder`, `move ${path} aside, then run weft init again`);
  }
}

async function kindOf(
  path: string,
): Promise<"missing" | "file" | "folder" | "symbolic link" | "special file"> {
  try {
    const info = await Deno.lstat(path);
    return info.isSymlink
      ? "symbolic link"
      : info.isDirectory
      ? "folder"
      : info.isFile
      ? "file"
      : "special file";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    throw error;
  }
}

/** Replaces a schema whole ({@linkcode replaceFile}), so that no reader sees half of it. */
async function writeSchema(projectDir: string, schema: ProjectSchema): Promise<void> {
  await attempt(schema.path, async () => {
    await Deno.mkdir(join(projectDir, "workflows"), { recursive: true });
    await replaceFile(join(projectDir, schema.path), schema.text);
  });
}

/** Creates the workflow; `createNew` refuses a file that appeared since the plan was made. */
async function writeWorkflow(projectDir: string, name: string): Promise<string> {
  const path = `workflows/${name}/workflow.json`;
  await attempt(path, async () => {
    await Deno.mkdir(join(projectDir, "workflows", name), { recursive: true });
    await Deno.writeTextFile(join(projectDir, path), scaffold(name), { createNew: true });
  });
  return path;
}

async function attempt(path: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new CommandFailure(
        "WORKFLOW_EXISTS",
        `${path} appeared while weft init ran; it was left untouched`,
        `edit ${path}, or choose another name: weft init <name>`,
      );
    }
    throw unwritable(
      path,
      `cannot be written: ${writeFailureReason(error)}`,
      "check that the project folder is yours and writable",
    );
  }
}

function unwritable(path: string, what: string, fix: string): CommandFailure {
  return new CommandFailure("OUTPUT_UNWRITABLE", `${path} ${what}; weft init wrote nothing there`, fix);
}

function report(
  files: { path: string; status: FileStatus }[],
  name: string | undefined,
  next: string,
  projectDir: string,
): void {
  const width = Math.max(...files.map((file) => file.path.length));
  for (const { path, status } of files) {
    const schema = PROJECT_SCHEMAS.find((candidate) => candidate.path === path);
    const what = schema
      ? status === "unchanged"
        ? `already weft ${VERSION}'s schema`
        : status === "updated"
        ? `it differed from weft ${VERSION}'s schema`
        : `the JSON Schema of ${schema.of}; editors validate with it`
      : "ask, check, confirm, commit: it runs as it is";
    const mark = status === "unchanged" ? paint("dim", "·") : paint("green", "✓");
    say(`${mark} ${status.padEnd(9)} ${path.padEnd(width)}  ${paint("dim", what)}`);
  }
  say("");
  if (name === undefined) say(hint("scaffold a workflow", next));
  else {
    say(hint("run it", next));
    say(
      // Named from the working directory, so that the path opens from where the person is.
      hint("then make it yours", relative(Deno.cwd(), join(projectDir, "workflows", name, "workflow.json"))) +
        paint("dim", " (edits apply without a restart)"),
    );
  }
}
