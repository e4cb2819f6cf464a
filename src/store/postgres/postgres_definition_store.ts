/**
 * Workflow definitions by version in a team store: the manifest and the digest of each declared file, with
 * file contents kept once per digest however many versions (and services) share them.
 *
 * @module
 */
import type { DefinitionStorage, StoredDefinition, StoredFile } from "../../engine/storage.ts";
import type { PgSql } from "./postgres_database.ts";

/** Reads and writes stored definitions and their file contents in one unit of work. */
export class PostgresDefinitionStore implements DefinitionStorage {
  readonly #sql: PgSql;

  constructor(sql: PgSql) {
    this.#sql = sql;
  }

  async has(version: string): Promise<boolean> {
    return await this.#sql.get("SELECT 1 FROM definitions WHERE version = $1", version) !== undefined;
  }

  async hasBlob(digest: string): Promise<boolean> {
    return await this.#sql.get("SELECT 1 FROM blobs WHERE digest = $1", digest) !== undefined;
  }

  async putBlob(digest: string, bytes: Uint8Array): Promise<void> {
    await this.#sql.run(
      "INSERT INTO blobs (digest, size, bytes) VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING",
      digest,
      bytes.length,
      bytes,
    );
  }

  async save(
    definition: Omit<StoredDefinition, "files"> & { files: Omit<StoredFile, "size">[] },
    at: string,
  ): Promise<void> {
    await this.#sql.run(
      `INSERT INTO definitions (version, flow_name, origin, manifest, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (version) DO NOTHING`,
      definition.version,
      definition.flowName,
      definition.origin,
      JSON.stringify(definition.manifest),
      at,
    );
    for (const file of definition.files) {
      await this.#sql.run(
        "INSERT INTO definition_files (version, path, blob) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        definition.version,
        file.path,
        file.digest,
      );
    }
  }

  async find(version: string): Promise<StoredDefinition | undefined> {
    const row = await this.#sql.get<{ flow_name: string; origin: string; manifest: string }>(
      "SELECT flow_name, origin, manifest FROM definitions WHERE version = $1",
      version,
    );
    if (!row) return undefined;
    const files = await this.#sql.all<{ path: string; blob: string; size: number }>(
      `SELECT f.path, f.blob, b.size FROM definition_files f JOIN blobs b ON b.digest = f.blob
       WHERE f.version = $1 ORDER BY f.path`,
      version,
    );
    return {
      version,
      flowName: row.flow_name,
      origin: row.origin as StoredDefinition["origin"],
      manifest: JSON.parse(row.manifest),
      files: files.map((file) => ({ path: file.path, digest: file.blob, size: Number(file.size) })),
    };
  }

  async readBlob(digest: string): Promise<Uint8Array | undefined> {
    const row = await this.#sql.get<{ bytes: Uint8Array }>(
      "SELECT bytes FROM blobs WHERE digest = $1",
      digest,
    );
    // The driver hands back a Node Buffer; the port promises a plain Uint8Array.
    return row && new Uint8Array(row.bytes);
  }

  async prune(): Promise<{ definitions: number; blobs: number }> {
    const definitions = await this.#sql.run(
      "DELETE FROM definitions WHERE NOT EXISTS (SELECT 1 FROM runs WHERE runs.version = definitions.version)",
    );
    const blobs = await this.#sql.run(
      "DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM definition_files f WHERE f.blob = blobs.digest)",
    );
    return { definitions, blobs };
  }
}
