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
  // Counts kept by triggers in the same transaction as the change, so that \`status\` reads a handful of rows
  // instead of scanning every Run, Artifact and Record.
  `
  CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO counts (name, n)
    SELECT 'runs.' || status, (SELECT COUNT(*) FROM runs WHERE runs.status = statuses.status)
    FROM (SELECT 'running' AS status UNION ALL SELECT 'waiting' UNION ALL SELECT 'completed'
          UNION ALL SELECT 'failed' UNION ALL SELECT 'cancelled') AS statuses;
  INSERT INTO counts (name, n) VALUES
    ('artifacts', (SELECT COUNT(*) FROM artifacts)),
    ('records', (SELECT COUNT(*) FROM records));
  CREATE TRIGGER runs_count_insert AFTER INSERT ON runs BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'runs.' || NEW.status;
  END;
  CREATE TRIGGER runs_count_status AFTER UPDATE OF status ON runs WHEN OLD.status IS NOT NEW.status BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'runs.' || OLD.status;
    UPDATE counts SET n = n + 1 WHERE name = 'runs.' || NEW.status;
  END;
  CREATE TRIGGER runs_count_delete AFTER DELETE ON runs BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'runs.' || OLD.status;
  END;
  CREATE TRIGGER artifacts_count_insert AFTER INSERT ON artifacts BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'artifacts';
  END;
  CREATE TRIGGER artifacts_count_delete AFTER DELETE ON artifacts BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'artifacts';
  END;
  CREATE TRIGGER records_count_insert AFTER INSERT ON records BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'records';
  END;
  CREATE TRIGGER records_count_delete AFTER DELETE ON records BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'records';
  END;
  `,
  // Workflow versions: each Run names the definition it is driven by, stored content-addressed (a
  // definition by its version, each file by its digest) so identical content is kept once. Runs stored
  // before this have no version; the engine pins them when it opens the store.
  `
  ALTER TABLE runs ADD COLUMN version TEXT;
  CREATE INDEX runs_by_version ON runs (version);
  CREATE TABLE blobs (
    digest TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    bytes BLOB NOT NULL
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
  `,
  // Publications: what weft last wrote to each project file (its digest), so that a file a person edited
  // since, or one weft never wrote, is left as it is.
  `
  CREATE TABLE publications (
    path TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    artifact_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    written_at TEXT NOT NULL
  );
  `,
  // Publications to do: stored with the commit that decides one and removed with its outcome, so that one cut
  // short by a kill is finished at the next start rather than lost.
  `
  CREATE TABLE pending_publications (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    artifact_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    job TEXT NOT NULL,
    UNIQUE (artifact_id, revision)
  );
  `,
];
