/**
 * A project folder in memory behind the engine's file ports ({@linkcode ProjectFiles},
 * {@linkcode ProjectTree} and {@linkcode ProjectChanges}), for tests of the engine and the state machine that need project files but not a
 * temporary folder. It keeps the ports' rules as `src/files/` does: paths through `project_paths.ts`, a
 * symbolic link never followed (refused on the way to a file, skipped in a listing, reported by `stat`), a
 * file with a second hard link refused, sizes bounded; changes are compared as git would show them (every
 * file but denied names, with a unified diff). The real folder's races are `src/files/`'s own tests.
 *
 * @module
 */
import { conflict, invalid, WeftError } from "../../src/errors.ts";
import { sha256Hex } from "../../src/lib/sha256.ts";
import { confinedSegments, isDeniedName } from "../../src/engine/project_paths.ts";
import { DEFAULT_READ_BYTES, type FileListing, type ProjectFiles } from "../../src/engine/project_files.ts";
import type { ProjectTree, TreeEntry } from "../../src/engine/project_tree.ts";
import type { ChangedFile, ProjectChanges } from "../../src/engine/project_changes.ts";
import { bounded, unifiedDiff } from "../../src/lib/unified_diff.ts";

type Node =
  | { kind: "file"; bytes: Uint8Array; mtimeMs: number; hardLinks: number }
  | { kind: "folder"; mtimeMs: number }
  | { kind: "symlink"; target: string; mtimeMs: number };

/** A project's files in memory; `files` and `tree` are its two ports. */
export class MemoryProject {
  readonly #nodes = new Map<string, Node>();
  readonly #snapshots = new Map<string, Map<string, string>>();
  #clock = 0;
  /** When set, the changes port fails with it (a broken git, a removed `.weft/`). */
  changesFailure: Error | undefined;
  /**
   * Runs when a write through the port begins, before it compares what it replaces: what another program
   * does while weft writes (a person saving the same file).
   */
  beforeWrite: ((path: string) => void) | undefined;
  #held: { reached: () => void; released: Promise<void> } | undefined;

  /** A project holding `files` (path → text). */
  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.put(path, text);
  }

  /** Creates or replaces a file (its folders too), as a person or another program would: no rule applies. */
  put(path: string, content: string | Uint8Array, options: { hardLinks?: number } = {}): void {
    this.#folders(path.split("/").slice(0, -1));
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content.slice();
    this.#nodes.set(path, { kind: "file", bytes, mtimeMs: this.#tick(), hardLinks: options.hardLinks ?? 1 });
  }

  /** Puts a symbolic link at `path` (pointing anywhere: it is never followed). */
  link(path: string, target: string): void {
    this.remove(path);
    this.#folders(path.split("/").slice(0, -1));
    this.#nodes.set(path, { kind: "symlink", target, mtimeMs: this.#tick() });
  }

  /** Makes an empty folder. */
  mkdir(path: string): void {
    this.#folders(path.split("/"));
  }

  /** Removes whatever is at `path`, and everything below it. */
  remove(path: string): void {
    for (const key of [...this.#nodes.keys()]) {
      if (key === path || key.startsWith(`${path}/`)) this.#nodes.delete(key);
    }
  }

  /** The text of the file at `path`, or undefined when there is none. */
  text(path: string): string | undefined {
    const node = this.#nodes.get(path);
    return node?.kind === "file" ? new TextDecoder().decode(node.bytes) : undefined;
  }

  /** Every path that holds a file, sorted. */
  paths(): string[] {
    return [...this.#nodes].filter(([, node]) => node.kind === "file").map(([path]) => path).sort();
  }

  /**
   * Holds the next read of the changes port (a mark or a comparison) until `release` is called, as a slow
   * git would; `reached` resolves once that read has begun.
   */
  holdChanges(): { reached: Promise<void>; release: () => void } {
    const reached = Promise.withResolvers<void>();
    const released = Promise.withResolvers<void>();
    this.#held = { reached: reached.resolve, released: released.promise };
    return { reached: reached.promise, release: () => released.resolve() };
  }

  /** The engine's asynchronous port. */
  readonly files: ProjectFiles = {
    read: (path, maxBytes = DEFAULT_READ_BYTES) => Promise.resolve().then(() => this.#read(path, maxBytes)),
    write: (path, text, options) =>
      Promise.resolve().then(() => {
        this.beforeWrite?.(path);
        if (options?.unchangedFrom !== undefined) {
          const bytes = this.#nodes.get(path);
          const digest = bytes?.kind === "file" ? sha256Hex(bytes.bytes) : null;
          if (digest !== options.unchangedFrom) throw conflict(`${path} changed while it was being replaced`);
        }
        this.#write(path, text);
      }),
    list: (dir, options) => Promise.resolve().then(() => this.#list(dir, options)),
  };

  /** The engine's synchronous port for workflow loading. */
  readonly tree: ProjectTree = {
    entries: (segments) => {
      const at = segments.join("/");
      if (at && this.#nodes.get(at)?.kind !== "folder") return null;
      const prefix = at ? `${at}/` : "";
      return [...this.#nodes].filter(([path]) =>
        path.startsWith(prefix) && !path.slice(prefix.length).includes("/")
      )
        .filter(([path]) => path !== at)
        .map(([path, node]) => entryOf(path.slice(prefix.length), node));
    },
    stat: (segments) => {
      const node = this.#nodes.get(segments.join("/"));
      return node ? entryOf(segments.at(-1) ?? "", node) : null;
    },
    read: (segments, maxBytes, label = segments.join("/")) => {
      const bytes = this.#read(segments.join("/"), maxBytes, label);
      if (bytes === null) throw new WeftError("TOOL_FAILED", `no such file or folder: ${label}`);
      return bytes;
    },
  };

  /** The changes port: marks are snapshots of every file's text (no denied name), kept in memory. */
  readonly changes: ProjectChanges = {
    mark: () =>
      this.#whenReleased().then(() => {
        if (this.changesFailure) throw this.changesFailure;
        const id = `memory:${this.#snapshots.size + 1}`;
        this.#snapshots.set(id, this.#snapshot());
        return id;
      }),
    since: (mark, maxDiffBytes) =>
      this.#whenReleased().then(() => {
        if (this.changesFailure) throw this.changesFailure;
        const before = this.#snapshots.get(mark);
        if (!before) throw new WeftError("TOOL_FAILED", "no such mark");
        const now = this.#snapshot();
        const files: ChangedFile[] = [...new Set([...before.keys(), ...now.keys()])].sort()
          .filter((path) => before.get(path) !== now.get(path))
          .map((path) => ({
            path,
            status: !now.has(path) ? "deleted" : !before.has(path) ? "added" : "modified",
          }));
        const whole = files.map(({ path }) =>
          `diff --git a/${path} b/${path}\n` +
          unifiedDiff(path, before.get(path) ?? null, now.get(path) ?? null, Infinity).diff
        ).join("");
        const { diff, cutBytes } = bounded(whole, maxDiffBytes);
        return { files, diff, cutBytes };
      }),
  };

  /** Waits while a read is held (see {@linkcode holdChanges}); the hold applies to one read only. */
  async #whenReleased(): Promise<void> {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    held.reached();
    await held.released;
  }

  #snapshot(): Map<string, string> {
    return new Map(
      this.paths().filter((path) => !path.split("/").some(isDeniedName)).map((
        path,
      ) => [path, this.text(path)!]),
    );
  }

  #read(path: string, maxBytes: number, label = path): Uint8Array | null {
    const segments = this.#fileSegments(path);
    const node = this.#reach(segments, label);
    if (!node) return null;
    if (node.kind === "folder") throw new WeftError("TOOL_FAILED", `not a regular file: ${label}`);
    if (node.kind === "symlink") throw linked(label);
    if (node.hardLinks > 1) {
      throw invalid(`${label} has more than one hard link; weft reads only files with a single link`);
    }
    if (node.bytes.length > maxBytes) {
      throw new WeftError("TOOL_FAILED", `${label} is larger than ${maxBytes} bytes`);
    }
    return node.bytes.slice();
  }

  #write(path: string, text: string): void {
    const segments = this.#fileSegments(path);
    const node = this.#reach(segments, path);
    if (node?.kind === "symlink") throw linked(path);
    if (node?.kind === "folder") throw new WeftError("TOOL_FAILED", `not a regular file: ${path}`);
    this.put(segments.join("/"), text);
  }

  #list(dir: string, { maxFiles, skip }: { maxFiles: number; skip: ReadonlySet<string> }): FileListing {
    const segments = confinedSegments(dir);
    const at = segments.join("/");
    if (at) {
      const node = this.#reach(segments, at);
      if (node?.kind === "symlink") throw linked(at);
      if (!node) throw new WeftError("TOOL_FAILED", `no such file or folder: ${at}`);
      if (node.kind !== "folder") throw new WeftError("TOOL_FAILED", `not a folder: ${at}`);
    }
    const files: string[] = [];
    const walk = (folder: string): boolean => {
      const entries = this.tree.entries(folder ? folder.split("/") : [])!.sort((a, b) =>
        a.name < b.name ? -1 : 1
      );
      for (const entry of entries) {
        if (isDeniedName(entry.name) || entry.kind === "symlink") continue;
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.kind === "folder" && !skip.has(entry.name)) {
          if (!walk(path)) return false;
        } else if (entry.kind === "file") {
          if (files.length >= maxFiles) return false;
          files.push(path);
        }
      }
      return true;
    };
    const whole = walk(at);
    return { files, truncated: !whole };
  }

  /** The segments of a file path, refusing what the ports refuse. */
  #fileSegments(path: string): string[] {
    const segments = confinedSegments(path);
    if (segments.length === 0) throw invalid("a path must name a file");
    return segments;
  }

  /** What is at `segments`, refusing a link or a file on the way; null when nothing is. */
  #reach(segments: string[], label: string): Node | null {
    for (let i = 1; i < segments.length; i++) {
      const node = this.#nodes.get(segments.slice(0, i).join("/"));
      if (!node) return null;
      if (node.kind === "symlink") throw linked(label);
      if (node.kind === "file") return null;
    }
    return this.#nodes.get(segments.join("/")) ?? null;
  }

  #folders(segments: string[]): void {
    for (let i = 1; i <= segments.length; i++) {
      const path = segments.slice(0, i).join("/");
      if (!this.#nodes.has(path)) this.#nodes.set(path, { kind: "folder", mtimeMs: this.#tick() });
    }
  }

  #tick(): number {
    return ++this.#clock;
  }
}

function entryOf(name: string, node: Node): TreeEntry {
  return { name, kind: node.kind, size: node.kind === "file" ? node.bytes.length : 0, mtimeMs: node.mtimeMs };
}

function linked(label: string): WeftError {
  return invalid(`${label} is a symbolic link; weft does not follow links`);
}
