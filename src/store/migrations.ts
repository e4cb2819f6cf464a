/**
 * The versioned schema of the store. Each entry moves the database one version forward; entries are never
 * edited once released, only appended.
 *
 * @module
 */

/** Migration scripts; the database's `user_version` counts how many have run. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    flow_name TEXT NOT NULL,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX runs_by_flow ON runs (flow_name, seq);
  CREATE INDEX runs_by_status ON runs (status, seq);
  CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  );
  CREATE TABLE records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
  `,
];
