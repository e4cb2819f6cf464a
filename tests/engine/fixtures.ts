/** Shared fixtures of the engine tests: an engine opener with the review workflow. */
import { Engine } from "../../src/engine/engine.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { projectFolder } from "../../src/store/project_folder.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";
import { reviewManifest } from "../support/workflows.ts";

/**
 * The project of engines opened without one: empty, shared by the tests of one module, and removed when the
 * module's tests end.
 */
let emptyProject: string | undefined;
function sharedEmptyProject(): string {
  if (emptyProject === undefined) {
    const dir = Deno.makeTempDirSync({ prefix: "weft-test-empty-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    emptyProject = dir;
  }
  return emptyProject;
}

/** Opens an in-memory engine with the real embedded workflows plus the review fixture. */
export function openEngine(
  options: { projectDir?: string; databasePath?: string; manifest?: unknown; publishFolder?: string } = {},
): Promise<Engine> {
  const projectDir = options.projectDir ?? sharedEmptyProject();
  return Engine.open({
    projectDir,
    projectFiles: projectFolder(Deno.realPathSync(projectDir)),
    publishFolder: options.publishFolder,
    storage: openSqliteStorage(options.databasePath ?? ":memory:"),
    embedded: [...EMBEDDED_WORKFLOWS, embeddedSource("review", options.manifest ?? reviewManifest(), {})],
  });
}
