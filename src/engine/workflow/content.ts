/**
 * What a workflow's version is the digest of: its manifest and the files it declares (the instructions of
 * its agent steps, and each declared Skill's `SKILL.md` and assets). Files of the folder it does not declare
 * (a README, an unused Skill) are not part of it, and neither is key order in the manifest.
 *
 * @module
 */
import { canonicalJson } from "../../lib/canonical_json.ts";
import { WeftError } from "../../errors.ts";
import { sha256Hex } from "../../lib/sha256.ts";
import { MAX_ASSET_BYTES } from "./skills.ts";
import type { WorkflowFile, WorkflowSource } from "./source.ts";
import type { ProjectTree } from "../project_tree.ts";

/** Tags the digest input, so that a future change of what a version covers can never collide with it. */
const FORMAT = "weft-definition/1";

/** The content of one loaded definition, with its version computed on first use. */
export class WorkflowContent {
  #version?: string;
  readonly #digests = new Map<string, string>();

  constructor(
    readonly origin: WorkflowSource["origin"],
    /** The manifest as parsed from `workflow.json`, before validation added or dropped anything. */
    readonly manifest: unknown,
    /** The declared files by folder-relative path. */
    readonly files: ReadonlyMap<string, WorkflowFile>,
    /** The project's folders, which project files are read from. */
    readonly tree?: ProjectTree,
  ) {}

  /** The version: the hex SHA-256 of the canonical manifest and the digest of every declared file. */
  get version(): string {
    this.#version ??= sha256Hex(canonicalJson({
      format: FORMAT,
      manifest: this.manifest,
      files: Object.fromEntries([...this.files.keys()].sort().map((path) => [path, this.digestOf(path)])),
    }));
    return this.#version;
  }

  /** The digest of one declared file (read once). */
  digestOf(path: string): string {
    let digest = this.#digests.get(path);
    if (digest === undefined) {
      const file = this.#file(path);
      digest = file.kind === "stored" ? file.digest : sha256Hex(this.bytesOf(path));
      this.#digests.set(path, digest);
    }
    return digest;
  }

  /** The bytes of one declared file, as they are now. */
  bytesOf(path: string): Uint8Array {
    const file = this.#file(path);
    switch (file.kind) {
      case "text":
        return new TextEncoder().encode(file.text);
      case "stored":
        return file.read();
      case "disk": {
        // Opened once without following links and checked (the tree's rule): a file that became a link, or
        // sits under a folder that did, gained a link or grew past 1 MiB since load is refused.
        if (this.tree === undefined) throw changed(path);
        try {
          return this.tree.read(file.segments, MAX_ASSET_BYTES);
        } catch (error) {
          if (error instanceof WeftError && error.message.includes("is larger than")) {
            throw new WeftError(
              "CONFLICT",
              `the workflow file "${path}" grew past 1 MiB since it was loaded`,
            );
          }
          throw changed(path);
        }
      }
      case "symlink":
        throw changed(path);
    }
  }

  #file(path: string): WorkflowFile {
    const file = this.files.get(path);
    if (!file) throw new Error(`"${path}" is not a declared file of this definition`);
    return file;
  }
}

/** A declared file that no longer is what was loaded: the definition must be loaded again. */
export function changed(path: string): WeftError {
  return new WeftError(
    "CONFLICT",
    `the workflow file "${path}" changed while it was being read; try again`,
  );
}
