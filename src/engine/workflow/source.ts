/**
 * Workflow sources: a manifest plus the files of its folder, held in memory so that embedded workflows (bundled
 * into the program) and project workflows (read from `<project>/workflows/<name>/`) load the same way.
 *
 * @module
 */
import { join } from "node:path";
import type { WorkflowOrigin } from "../views.ts";

/**
 * One file of a workflow folder. Embedded files carry their text; project files are recorded by absolute
 * path and size at load, and that path stays inside the engine (never in a view or a message). Files of a
 * stored definition (a version a Run is pinned to) are read from the store by their digest.
 */
export type WorkflowFile =
  | { kind: "text"; text: string }
  | { kind: "disk"; path: string; size: number }
  | { kind: "stored"; digest: string; size: number; read: () => Uint8Array }
  | { kind: "symlink" };

/** A workflow folder before validation. */
export interface WorkflowSource {
  origin: WorkflowOrigin;
  /** The folder's name: the workflow's expected name. */
  dirName: string;
  /** How messages name the folder, e.g. `workflows/demo` or `embedded/intent`; never absolute. */
  label: string;
  /** The parsed `workflow.json`, or the reason it could not be read. */
  manifest: { ok: true; value: unknown } | { ok: false; reason: string };
  /** Files by `/`-separated path relative to the folder. */
  files: Map<string, WorkflowFile>;
  /**
   * The program's own workflows are checked in full by the test suite before they ship, so loading them
   * skips compiling their JSON Schemas (the slowest part of start-up); they compile on first use instead.
   */
  prechecked?: boolean;
}

const MAX_FILES = 1000;

/**
 * Reads every `<projectDir>/workflows/<name>/` folder; a missing `workflows/` yields none. A JSON file placed
 * directly in `workflows/` is most likely a manifest put one folder too high: it is reported, not ignored.
 */
export function readProjectSources(projectDir: string): WorkflowSource[] {
  const root = join(projectDir, "workflows");
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(root)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const folders = entries.filter((entry) => entry.isDirectory).map((entry) => entry.name).sort()
    .map((name) => readProjectSource(join(root, name), name));
  // The manifest schema may sit beside the workflow folders, where the docs' `$schema` points.
  const stray = entries.filter((entry) =>
    entry.isFile && entry.name.endsWith(".json") && entry.name !== "workflow.schema.json"
  ).map((entry) => entry.name)
    .sort().map(strayManifest);
  return [...folders, ...stray];
}

function strayManifest(fileName: string): WorkflowSource {
  const reason = `workflows/${fileName}: a workflow lives in a folder of its own; move this file to ` +
    "workflows/<name>/workflow.json, where <name> is the workflow's name";
  return {
    origin: "project",
    dirName: fileName,
    label: `workflows/${fileName}`,
    manifest: { ok: false, reason },
    files: new Map(),
  };
}

function readProjectSource(dir: string, dirName: string): WorkflowSource {
  const label = `workflows/${dirName}`;
  const files = new Map<string, WorkflowFile>();
  collect(dir, "", files);
  const manifestFile = files.get("workflow.json");
  let manifest: WorkflowSource["manifest"];
  if (manifestFile?.kind !== "disk") {
    manifest = { ok: false, reason: `${label}/workflow.json: missing` };
  } else {
    try {
      manifest = { ok: true, value: JSON.parse(Deno.readTextFileSync(manifestFile.path)) };
    } catch (error) {
      const detail = error instanceof SyntaxError ? error.message : "unreadable";
      manifest = { ok: false, reason: `${label}/workflow.json: not valid JSON (${detail})` };
    }
  }
  return { origin: "project", dirName, label, manifest, files };
}

function collect(dir: string, prefix: string, files: Map<string, WorkflowFile>): void {
  for (const entry of Deno.readDirSync(dir)) {
    if (files.size >= MAX_FILES) return;
    const relative = prefix + entry.name;
    const path = join(dir, entry.name);
    if (entry.isSymlink) files.set(relative, { kind: "symlink" });
    else if (entry.isDirectory) collect(path, relative + "/", files);
    else if (entry.isFile) files.set(relative, { kind: "disk", path, size: Deno.statSync(path).size });
  }
}

/**
 * A stamp of everything under `<projectDir>/workflows/` (paths, sizes, modification times), so that a
 * service notices edits to a project's workflows without reading and checking them again on every call.
 */
export function projectWorkflowsStamp(projectDir: string): string {
  const parts: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const entry of entries) {
      if (parts.length >= MAX_FILES) return;
      const path = join(dir, entry.name);
      const info = Deno.lstatSync(path);
      parts.push(`${prefix}${entry.name}:${info.size}:${info.mtime?.getTime() ?? 0}`);
      if (entry.isDirectory) walk(path, `${prefix}${entry.name}/`);
    }
  };
  walk(join(projectDir, "workflows"), "");
  return parts.sort().join("\n");
}

/** The text of a workflow file (project and stored files are read now). */
export function readWorkflowText(file: WorkflowFile): string {
  if (file.kind === "text") return file.text;
  if (file.kind === "disk") return Deno.readTextFileSync(file.path);
  if (file.kind === "stored") return new TextDecoder().decode(file.read());
  throw new Error("symbolic links are not read");
}
