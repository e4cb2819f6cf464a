/**
 * Shared fixtures of the engine tests: an engine over the in-memory ports (storage and project files) with
 * the real embedded workflows plus the review fixture, and one over the real ones for the few tests that
 * are about SQLite or the disk.
 */
import { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import type { Storage } from "../../src/engine/storage.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { projectFolder } from "../../src/files/project_folder.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import { projectChanges } from "../../src/files/project_changes.ts";
import type { DeclaredEditStep } from "../../src/engine/workflow/trusted_steps.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";
import { reviewManifest } from "../support/workflows.ts";
import type { ModelRoles } from "../../src/engine/model_roles.ts";
import { MemoryDatabase, openMemoryStorage } from "../support/memory_storage.ts";
import { MemoryProject } from "../support/memory_project.ts";

/** What an engine of these tests is opened with; every part has a default. */
export interface EngineFixture {
  /** The project's files (empty by default). */
  project?: MemoryProject;
  /** The store's data (empty by default): pass the same one to open an engine again over it. */
  database?: MemoryDatabase;
  /** A storage instead of one over `database` (one that fails as a kill would, say). */
  storage?: Storage;
  /** The manifest of the embedded `review` workflow, and the files of its folder. */
  manifest?: unknown;
  manifestFiles?: Record<string, string>;
  publishFolder?: string;
  /** Why the person does not trust a project workflow step's edits; by default every one is trusted. */
  editRefusal?: (site: DeclaredEditStep) => string | undefined;
  /** The service's model roles (none configured by default). */
  models?: ModelRoles;
}

/** Opens an engine over in-memory ports with the real embedded workflows plus the review fixture. */
export function openEngine(options: EngineFixture = {}): Promise<Engine> {
  const project = options.project ?? new MemoryProject();
  return Engine.open({
    projectFiles: project.files,
    projectTree: project.tree,
    projectChanges: project.changes,
    editRefusal: options.editRefusal ?? (() => undefined),
    publishFolder: options.publishFolder,
    storage: options.storage ?? openMemoryStorage(options.database),
    embedded: embedded(options.manifest, options.manifestFiles),
    models: options.models,
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
    projectChanges: projectChanges(root, `${root}/.weft/changes`),
    storage: options.databasePath ? openSqliteStorage(options.databasePath) : openMemoryStorage(),
    embedded: embedded(options.manifest),
  });
}

/** An agent call an IDE's agent holds: its Run, and a caller of the tools its step declares. */
export interface ClaimedCall {
  run: RunView;
  callId: string;
  tool: (toolId: string, input: unknown) => Promise<unknown>;
}

/** Starts a Run of `flowName` whose agent steps an IDE's agent executes, and claims its first agent call. */
export async function claimFirstCall(engine: Engine, flowName: string): Promise<ClaimedCall> {
  const run = await engine.startRun({
    flowName,
    intent: "change the files",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  const callId = run.pendingAgentCall!.id;
  await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
  return {
    run,
    callId,
    tool: (toolId, input) => engine.runAgentTool({ runId: run.runId, callId, toolId, input }),
  };
}

function embedded(manifest?: unknown, files: Record<string, string> = {}) {
  return [...EMBEDDED_WORKFLOWS, embeddedSource("review", manifest ?? reviewManifest(), files)];
}
