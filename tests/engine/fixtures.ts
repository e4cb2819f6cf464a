/** Shared fixtures of the engine tests: engine openers (with the review workflow) and temp projects. */
import { Engine } from "../../src/engine/engine.ts";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";
import { reviewManifest } from "../support/workflows.ts";

/** Opens an in-memory engine with the real embedded workflows plus the review fixture. */
export function openEngine(
  options: { projectDir?: string; databasePath?: string; manifest?: unknown } = {},
): Engine {
  return Engine.open({
    projectDir: options.projectDir ?? Deno.makeTempDirSync(),
    storage: openSqliteStorage(options.databasePath ?? ":memory:"),
    embedded: [...EMBEDDED_WORKFLOWS, embeddedSource("review", options.manifest ?? reviewManifest(), {})],
  });
}

/** Writes files (path → text) under a fresh temp directory and returns it. */
export function tempProject(files: Record<string, string>): string {
  const dir = Deno.makeTempDirSync();
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(full, text);
  }
  return dir;
}
