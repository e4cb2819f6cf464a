/**
 * Shared fixtures of the engine tests: an engine over the in-memory ports (storage and project files) with
 * the real embedded workflows plus the review fixture, and one over the real ones for the few tests that
 * are about SQLite or the disk.
 */
import { Engine } from "../../src/engine/engine.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { projectFolder } from "../../src/files/project_folder.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";
import { reviewManifest } from "../support/workflows.ts";
import { MemoryDatabase, openMemoryStorage } from "../support/memory_storage.ts";
import { MemoryProject } from "../support/memory_project.ts";

/** What an engine of these tests is opened with; every part has a default. */
export interface EngineFixture {
  /** The project's files (empty by default). */
  project?: MemoryProject;
  /** The store's data (empty by default): pass the same one to open an engine again over it. */
  database?: MemoryDatabase;
  /** The manifest of the embedded `review` workflow. */
  manifest?: unknown;
  publishFolder?: string;
}

/** Opens an engine over in-memory ports with the real embedded workflows plus the review fixture. */
export function openEngine(options: EngineFixture = {}): Promise<Engine> {
  const project = options.project ?? new MemoryProject();
  return Engine.open({
    projectFiles: project.files,
    projectTree: project.tree,
    publishFolder: options.publishFolder,
    storage: openMemoryStorage(options.database),
    embedded: embedded(options.manifest),
  });
}

/**
 * Opens an engine over the project folder `projectDir` on disk, and over SQLite at `databasePath` when one
 * is given (else in memory): for the tests whose subject is the disk or the database.
 */
export function openEngineOnDisk(
  options: { projectDir: string; databasePath?: string; manifest?: unknown },
): Promise<Engine> {
  const root = Deno.realPathSync(options.projectDir);
  return Engine.open({
    projectFiles: projectFolder(root),
    projectTree: projectTree(root),
    storage: options.databasePath ? openSqliteStorage(options.databasePath) : openMemoryStorage(),
    embedded: embedded(options.manifest),
  });
}

function embedded(manifest?: unknown) {
  return [...EMBEDDED_WORKFLOWS, embeddedSource("review", manifest ?? reviewManifest(), {})];
}
