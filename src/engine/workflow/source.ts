/**
 * Workflow sources: a manifest plus the files of its folder, held in memory so that embedded workflows (bundled
 * into the program) and project workflows (read from `<project>/workflows/<name>/`) load the same way.
 *
 * @module
 */
import { WeftError } from "../../errors.ts";
import { escapeToken } from "../json_pointer.ts";
import type { ProjectTree, TreeEntry } from "../project_tree.ts";
import { MAX_JSON_DEPTH, nestingDepth } from "../../lib/json_depth.ts";
import type { WorkflowOrigin } from "../views.ts";

/**
 * One file of a workflow folder. Embedded files carry their text; project files are recorded by their path
 * segments under the project and their size at load, and are read through the {@linkcode ProjectTree} port
 * (no link anywhere, one hard link, bounded) each time. Files of a stored definition (a
 * version a Run is pinned to) are read from the store by their digest.
 */
export type WorkflowFile =
  | { kind: "text"; text: string }
  | { kind: "disk"; segments: string[]; size: number }
  | { kind: "stored"; digest: string; size: number; read: () => Uint8Array }
  | { kind: "symlink" };

/** Largest workflow file read at load (manifests, instructions, Skills); assets have their own bound. */
export const MAX_WORKFLOW_FILE_BYTES = 1024 * 1024;

/** A workflow folder before validation. */
export interface WorkflowSource {
  origin: WorkflowOrigin;
  /** The folder's name: the workflow's expected name. */
  dirName: string;
  /** How messages name the folder, e.g. `workflows/demo` or `embedded/intent`; never absolute. */
  label: string;
  /** For project workflows: the project's folders, which file segments are relative to. */
  tree?: ProjectTree;
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
 * Reads every `workflows/<name>/` folder of the project; a missing `workflows/` yields none. A JSON file placed
 * directly in `workflows/` is most likely a manifest put one folder too high: it is reported, not ignored
 * (a `*.schema.json` there is a schema for editors, not a manifest).
 */
export function readProjectSources(tree: ProjectTree): WorkflowSource[] {
  const entries = tree.entries(["workflows"]) ?? [];
  const folders = entries.filter((entry) => entry.kind === "folder").map((entry) => entry.name).sort()
    .map((name) => readProjectSource(tree, name));
  // A JSON Schema may sit beside the workflow folders: `weft init` writes the manifest's there, where the
  // scaffolded `$schema` points.
  const stray = entries.filter((entry) =>
    entry.kind === "file" && entry.name.endsWith(".json") && !entry.name.endsWith(".schema.json")
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

function readProjectSource(tree: ProjectTree, dirName: string): WorkflowSource {
  const label = `workflows/${dirName}`;
  const files = new Map<string, WorkflowFile>();
  collect(tree, ["workflows", dirName], "", files);
  const source: WorkflowSource = {
    origin: "project",
    dirName,
    label,
    tree,
    manifest: { ok: false, reason: `${label}/workflow.json: missing` },
    files,
  };
  const manifestFile = files.get("workflow.json");
  if (manifestFile?.kind === "disk") {
    let text: string;
    try {
      text = readWorkflowText(source, manifestFile);
    } catch (error) {
      source.manifest = { ok: false, reason: unreadable(error) };
      return source;
    }
    try {
      const value = JSON.parse(text);
      source.manifest = nestingDepth(new TextEncoder().encode(text)) > MAX_JSON_DEPTH
        ? { ok: false, reason: `${label}/workflow.json#${deepPointer(value)}: ${TOO_DEEP}` }
        : { ok: true, value };
    } catch (error) {
      source.manifest = { ok: false, reason: `${label}/workflow.json: not valid JSON${jsonPosition(error)}` };
    }
  }
  return source;
}

const TOO_DEEP =
  `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects, weft's bound for any JSON`;

/** How many tokens of a too-deep path a reason shows: enough to find the field, not 512 of them. */
const SHOWN_TOKENS = 6;

/**
 * The pointer to where `value` first nests past {@linkcode MAX_JSON_DEPTH}, cut after a few tokens. JSON.parse
 * handles any depth, and so does this walk (an explicit stack): it is the recursive code after it that cannot.
 */
function deepPointer(value: unknown): string {
  // Each entry keeps its depth and the first tokens of its path; past them, children share the parent's.
  const pending: { node: unknown; depth: number; shown: string[] }[] = [{ node: value, depth: 0, shown: [] }];
  while (pending.length) {
    const { node, depth, shown } = pending.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= MAX_JSON_DEPTH) return `${shown.map((token) => `/${escapeToken(token)}`).join("")}/…`;
    for (const [key, child] of Object.entries(node)) {
      const path = shown.length < SHOWN_TOKENS ? [...shown, key] : shown;
      pending.push({ node: child, depth: depth + 1, shown: path });
    }
  }
  return "";
}

/**
 * Where JSON.parse stopped, without the excerpt of the text V8 puts in its message: a file that is a copy or
 * a link of a secret must not show its content in a reason every endpoint lists.
 */
function jsonPosition(error: unknown): string {
  const match = /position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(String((error as Error)?.message));
  if (!match) return "";
  return match[2] ? ` (line ${match[2]} column ${match[3]})` : ` (at position ${match[1]})`;
}

/** Why a workflow file could not be read, naming it by its project-relative path, safe for any client. */
export function unreadable(error: unknown): string {
  return error instanceof WeftError ? error.message : "a workflow file is unreadable";
}

function collect(
  tree: ProjectTree,
  segments: string[],
  prefix: string,
  files: Map<string, WorkflowFile>,
): void {
  const entries = (tree.entries(segments) ?? []).sort(byName);
  for (const entry of entries) {
    if (files.size >= MAX_FILES) return;
    const relative = prefix + entry.name;
    if (entry.kind === "symlink") files.set(relative, { kind: "symlink" });
    else if (entry.kind === "folder") collect(tree, [...segments, entry.name], relative + "/", files);
    else if (entry.kind === "file") {
      files.set(relative, { kind: "disk", segments: [...segments, entry.name], size: entry.size });
    }
  }
}

function byName(a: TreeEntry, b: TreeEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * A stamp of everything under `workflows/` (paths, sizes, modification times), so that a service notices
 * edits to a project's workflows without reading and checking them again on every call.
 */
export function projectWorkflowsStamp(tree: ProjectTree): string {
  const parts: string[] = [];
  const walk = (segments: string[], prefix: string) => {
    for (const entry of tree.entries(segments) ?? []) {
      if (parts.length >= MAX_FILES) return;
      parts.push(`${prefix}${entry.name}:${entry.size}:${entry.mtimeMs}`);
      if (entry.kind === "folder") walk([...segments, entry.name], `${prefix}${entry.name}/`);
    }
  };
  walk(["workflows"], "");
  return parts.sort().join("\n");
}

/**
 * The text of a workflow file (project files are read now, through the {@linkcode ProjectTree} port; stored
 * files from the store); throws a `WeftError` saying why a project file cannot be read.
 */
export function readWorkflowText(source: WorkflowSource, file: WorkflowFile): string {
  if (file.kind === "text") return file.text;
  if (file.kind === "stored") return new TextDecoder().decode(file.read());
  if (file.kind === "disk" && source.tree !== undefined) {
    return new TextDecoder().decode(source.tree.read(file.segments, MAX_WORKFLOW_FILE_BYTES));
  }
  throw new WeftError("INVALID_REQUEST", "symbolic links are not read");
}
