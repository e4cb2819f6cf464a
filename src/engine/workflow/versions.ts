/**
 * Workflow versions: a Run is driven by the definition it started with. Starting a Run pins the current
 * definition: it is stored by its version (each file once per digest), so the Run continues exactly as it
 * began across edits, a deleted folder, restarts and upgrades of weft.
 *
 * @module
 */
import { conflict, WeftError } from "../../errors.ts";
import type { RunState } from "../run_state.ts";
import type { DefinitionStorage, StorageUnit } from "../storage.ts";
import { moveMisfits } from "../run_move.ts";
import type { WorkflowView } from "../views.ts";
import { changed } from "./content.ts";
import { sha256Hex } from "../../lib/sha256.ts";
import { shortVersion } from "./short_version.ts";
import { type LoadedWorkflow, loadWorkflow } from "./loader.ts";
import type { WorkflowRegistry } from "./registry.ts";
import type { WorkflowFile } from "./source.ts";

/** How many stored definitions stay loaded in memory besides the current ones. */
const CACHED_VERSIONS = 32;

/**
 * The current and the pinned definitions of every workflow. Each method that reaches the store is given the
 * definitions of the caller's unit of work, so it joins that unit's transaction.
 */
export class WorkflowVersions {
  readonly #registry: WorkflowRegistry;
  readonly #cache = new Map<string, LoadedWorkflow>();

  constructor(registry: WorkflowRegistry) {
    this.#registry = registry;
  }

  /** Stores the definition of `workflow` unless its version is stored already; returns the version. */
  async pin(store: DefinitionStorage, workflow: LoadedWorkflow, at: string): Promise<string> {
    const { content } = workflow;
    const version = content.version;
    if (await store.has(version)) return version;
    const files = [...content.files.keys()].sort().map((path) => ({ path, digest: content.digestOf(path) }));
    for (const { path, digest } of files) {
      if (await store.hasBlob(digest)) continue;
      const bytes = content.bytesOf(path);
      if (sha256Hex(bytes) !== digest) throw changed(path);
      await store.putBlob(digest, bytes);
    }
    await store.save(
      {
        version,
        flowName: workflow.manifest.name,
        origin: workflow.origin,
        manifest: content.manifest,
        files,
      },
      at,
    );
    return version;
  }

  /**
   * The definition that drives a Run pinned to `version` of `flowName`: the current one when it is that
   * version, else the stored one. This is the one way the engine finds what a Run follows.
   */
  async resolve(store: DefinitionStorage, flowName: string, version: string): Promise<LoadedWorkflow> {
    const current = this.#registry.loaded(flowName);
    if (current?.content.version === version) return current;
    const cached = this.#cache.get(version);
    if (cached) return cached;
    const workflow = await this.#loadStored(store, flowName, version);
    if (this.#cache.size >= CACHED_VERSIONS) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(version, workflow);
    return workflow;
  }

  /**
   * Adds to each workflow view its current version and how many active Runs (`active`, per workflow and
   * version) another version drives.
   */
  describe(
    views: WorkflowView[],
    active: { flowName: string; version: string | null; count: number }[],
  ): WorkflowView[] {
    const availableNames = new Set(views.filter((view) => view.available).map((view) => view.name));
    return views.map((view) => {
      // A project workflow refused for taking an embedded name: the Runs of that name are the embedded one's.
      if (!view.available && availableNames.has(view.name)) return view;
      const version = view.available ? this.#registry.loaded(view.name)?.content.version : undefined;
      const olderActiveRuns = active.filter((entry) =>
        entry.flowName === view.name && entry.version !== null && entry.version !== version
      ).reduce((sum, entry) => sum + entry.count, 0);
      return { ...view, ...(version ? { version: shortVersion(version) } : {}), olderActiveRuns };
    });
  }

  /**
   * Pins the Runs stored before weft kept versions to the current definition of their workflow, so that
   * from now on an edit no longer changes them; returns how many. A Run whose workflow does not load now is
   * pinned when it is next driven. Definitions no Run names any more are dropped.
   */
  async pinUnversioned(unit: StorageUnit, at: string): Promise<number> {
    const { runs } = unit;
    let count = 0;
    for (const run of await runs.unversioned()) {
      const workflow = this.#registry.loaded(run.flowName);
      if (!workflow) continue;
      try {
        run.version = await this.pin(unit.definitions, workflow, at);
      } catch (error) {
        // A file that changed while it was read: the Run is pinned when it is next driven.
        if (error instanceof WeftError) continue;
        throw error;
      }
      await runs.update(run);
      await runs.appendEvents(run.runId, [{
        type: "version_pinned",
        at,
        version: shortVersion(run.version),
      }]);
      count++;
    }
    await unit.definitions.prune();
    return count;
  }

  /**
   * Moves a waiting Run to the current definition of its workflow when it fits there (see
   * {@linkcode moveMisfits}); returns the short versions it moved between, or undefined when it already
   * runs the current one. `CONFLICT` says what does not fit, and the Run is left as it was.
   */
  async moveToCurrent(
    store: DefinitionStorage,
    run: RunState,
    at: string,
  ): Promise<{ fromVersion?: string; toVersion: string } | undefined> {
    const stays = `Run ${run.runId} stays on its version`;
    if (run.status !== "waiting") {
      throw conflict(`Run ${run.runId} is ${run.status}; only a waiting Run can move to another version`);
    }
    const entry = this.#registry.find(run.flowName);
    if (!entry) throw conflict(`workflow "${run.flowName}" no longer exists; ${stays}`);
    if (!entry.ok) throw conflict(`workflow "${run.flowName}" is unavailable, so ${stays}: ${entry.reason}`);
    const target = entry.workflow;
    if (run.version === target.content.version) return undefined;
    const misfits = moveMisfits(run, target);
    if (misfits.length) {
      throw conflict(
        `Run ${run.runId} cannot move to version ${
          shortVersion(target.content.version)
        } of "${run.flowName}": ${misfits.join("; ")}`,
      );
    }
    const from = run.version;
    // The version moved from stays stored until the next start drops what no Run names (see pinUnversioned).
    run.version = await this.pin(store, target, at);
    return { ...(from ? { fromVersion: shortVersion(from) } : {}), toVersion: shortVersion(run.version) };
  }

  /** The bytes of a declared file of `workflow` as stored with its version, never as the folder has it now. */
  fileBytes(store: DefinitionStorage, workflow: LoadedWorkflow, path: string): Promise<Uint8Array> {
    return blob(store, workflow.content.digestOf(path), path);
  }

  /**
   * Loads a stored definition with every file's bytes read up front: loading reads them synchronously, and
   * the loaded definition is cached ({@linkcode CACHED_VERSIONS}), so the store is asked once per version.
   */
  async #loadStored(store: DefinitionStorage, flowName: string, version: string): Promise<LoadedWorkflow> {
    const stored = await store.find(version);
    if (!stored || stored.flowName !== flowName) {
      throw new WeftError(
        "STORAGE_ERROR",
        `version ${shortVersion(version)} of workflow "${flowName}" is missing from the store`,
      );
    }
    const files = new Map<string, WorkflowFile>();
    for (const { path, digest, size } of stored.files) {
      const bytes = await blob(store, digest, path);
      files.set(path, { kind: "stored", digest, size, read: () => bytes });
    }
    const entry = loadWorkflow({
      origin: stored.origin,
      dirName: flowName,
      label: `${stored.origin === "embedded" ? "embedded" : "workflows"}/${flowName}@${
        shortVersion(version)
      }`,
      manifest: { ok: true, value: stored.manifest },
      files,
      // It was checked in full when it was current; its schemas compile on first use.
      prechecked: true,
    });
    if (!entry.ok) {
      throw conflict(
        `version ${shortVersion(version)} of workflow "${flowName}" no longer loads: ${entry.reason}`,
      );
    }
    return entry.workflow;
  }
}

async function blob(store: DefinitionStorage, digest: string, path: string): Promise<Uint8Array> {
  const bytes = await store.readBlob(digest);
  if (!bytes) throw new WeftError("STORAGE_ERROR", `the stored content of "${path}" is missing`);
  return bytes;
}
