/**
 * The versioned schema of a team store on PostgreSQL. Each entry moves the database one version forward and
 * is never edited once released, only appended; `weft_migrations` holds one row per entry applied.
 *
 * The tables follow the SQLite store's, with two additions: a Run's `rev`, which every save compares in its
 * `WHERE` so that no service overwrites a change it did not load, and `weft_project`, the one project the
 * database holds. A Run's timeline is rows of its own already; a list's items can become rows of their own
 * the same way (a table keyed by Run and item) without touching the rest.
 *
 * @module
 */

/** Migration scripts, applied in order, each in the transaction that records it. */
export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE weft_project (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    project_key TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE runs (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    flow_name TEXT NOT NULL,
    version TEXT,
    status TEXT NOT NULL,
    rev BIGINT NOT NULL DEFAULT 1,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX runs_by_flow ON runs (flow_name, seq);
  CREATE INDEX runs_by_status ON runs (status, seq);
  CREATE INDEX runs_by_version ON runs (version);
  CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  );
  CREATE TABLE records (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    flow_name TEXT NOT NULL,
    stage_name TEXT NOT NULL,
    artifact_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    data TEXT NOT NULL,
    answers TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX records_by_run ON records (run_id, seq);
  CREATE TABLE artifacts (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    flow_name TEXT NOT NULL,
    stage_name TEXT NOT NULL,
    revision INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    record_id TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (flow_name, stage_name)
  );
  CREATE INDEX artifacts_by_flow ON artifacts (flow_name, seq);
  CREATE INDEX artifacts_by_stage ON artifacts (stage_name, seq);
  CREATE TABLE artifact_revisions (
    artifact_id TEXT NOT NULL REFERENCES artifacts (id),
    revision INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    record_id TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (artifact_id, revision)
  );
  CREATE TABLE blobs (
    digest TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    bytes BYTEA NOT NULL
  );
  CREATE TABLE definitions (
    version TEXT PRIMARY KEY,
    flow_name TEXT NOT NULL,
    origin TEXT NOT NULL,
    manifest TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE definition_files (
    version TEXT NOT NULL REFERENCES definitions (version) ON DELETE CASCADE,
    path TEXT NOT NULL,
    blob TEXT NOT NULL REFERENCES blobs (digest),
    PRIMARY KEY (version, path)
  );
  CREATE INDEX definition_files_by_blob ON definition_files (blob);
  CREATE TABLE publications (
    path TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    artifact_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    written_at TEXT NOT NULL
  );
  CREATE TABLE pending_publications (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    artifact_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    job TEXT NOT NULL,
    UNIQUE (artifact_id, revision)
  );
  `,
];
