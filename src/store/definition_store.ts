// deno-lint-ignore-file require-await -- node:sqlite is synchronous; the methods are async to fulfil the
// engine's asynchronous storage port (a failure becomes a rejected promise, as from a networked store).
/**
 * Workflow definitions by version over SQLite: the manifest and the digest of each declared file, with file
 * contents kept once per digest however many versions share them.
 *
 * @module
 */
import type { DefinitionStorage, StoredDefinition, StoredFile } from "../engine/storage.ts";
import type { Database } from "./database.ts";

/** Reads and writes stored definitions and their file contents. */
export class DefinitionStore implements DefinitionStorage {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async has(version: string): Promise<boolean> {
    return this.#db.get("SELECT 1 FROM definitions WHERE version = ?", version) !== undefined;
  }

  async hasBlob(digest: string): Promise<boolean> {
    return this.#db.get("SELECT 1 FROM blobs WHERE digest = ?", digest) !== undefined;
  }

  async putBlob(digest: string, bytes: Uint8Array): Promise<void> {
    this.#db.run(
      "INSERT OR IGNORE INTO blobs (digest, size, bytes) VALUES (?, ?, ?)",
      digest,
      bytes.length,
      bytes,
    );
  }

  async save(
    definition: Omit<StoredDefinition, "files"> & { files: Omit<StoredFile, "size">[] },
    at: string,
  ): Promise<void> {
    this.#db.run(
      "INSERT OR IGNORE INTO definitions (version, flow_name, origin, manifest, created_at) VALUES (?, ?, ?, ?, ?)",
      definition.version,
      definition.flowName,
      definition.origin,
      JSON.stringify(definition.manifest),
      at,
    );
    for (const file of definition.files) {
      this.#db.run(
        "INSERT OR IGNORE INTO definition_files (version, path, blob) VALUES (?, ?, ?)",
        definition.version,
        file.path,
        file.digest,
      );
    }
  }

  async find(version: string): Promise<StoredDefinition | undefined> {
    const row = this.#db.get<{ flow_name: string; origin: string; manifest: string }>(
      "SELECT flow_name, origin, manifest FROM definitions WHERE version = ?",
      version,
    );
    if (!row) return undefined;
    const files = this.#db.all<{ path: string; blob: string; size: number }>(
      `SELECT f.path, f.blob, b.size FROM definition_files f JOIN blobs b ON b.digest = f.blob
       WHERE f.version = ? ORDER BY f.path`,
      version,
    ).map((file) => ({ path: file.path, digest: file.blob, size: Number(file.size) }));
    return {
      version,
      flowName: row.flow_name,
      origin: row.origin as StoredDefinition["origin"],
      manifest: JSON.parse(row.manifest),
      files,
    };
  }

  async readBlob(digest: string): Promise<Uint8Array | undefined> {
    return this.#db.get<{ bytes: Uint8Array }>("SELECT bytes FROM blobs WHERE digest = ?", digest)?.bytes;
  }

  async prune(): Promise<{ definitions: number; blobs: number }> {
    const definitions = this.#count("definitions");
    const blobs = this.#count("blobs");
    this.#db.run(
      `DELETE FROM definitions WHERE NOT EXISTS (SELECT 1 FROM runs WHERE runs.version = definitions.version)`,
    );
    this.#db.run(
      `DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM definition_files f WHERE f.blob = blobs.digest)`,
    );
    return { definitions: definitions - this.#count("definitions"), blobs: blobs - this.#count("blobs") };
  }

  #count(table: "definitions" | "blobs"): number {
    return Number(this.#db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n ?? 0);
  }
}
