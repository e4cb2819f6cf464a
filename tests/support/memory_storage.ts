// deno-lint-ignore-file require-await -- the port is asynchronous; this store answers at once.
/**
 * The engine's storage port in memory, for tests of the engine and the state machine that need a store but
 * not SQLite: the same contract as `src/store/` (units one after another, a transaction rolled back whole
 * when its work throws, Runs kept as JSON, pages newest first with the same cursors), and nothing on disk.
 * A {@linkcode MemoryDatabase} outlives the storages opened over it, as a database file outlives a service,
 * so a test can close an engine and open another over the same data.
 *
 * @module
 */
import type { NewRunEvent, RunState } from "../../src/engine/run_state.ts";
import type {
  ArtifactQuery,
  ArtifactStorage,
  DefinitionStorage,
  PendingPublication,
  PublicationRecord,
  PublicationStorage,
  RunStorage,
  StageCommit,
  Storage,
  StorageUnit,
  StoredDefinition,
  StoredFile,
} from "../../src/engine/storage.ts";
import {
  ACTIVE_RUN_STATUSES,
  type ArtifactView,
  type RecordView,
  type RunEventView,
} from "../../src/engine/views.ts";
import { decodeCursor, encodeCursor, pageLimit } from "../../src/store/page_cursor.ts";

interface ArtifactRow extends ArtifactView {
  seq: number;
  /** Every revision's data and origin, by revision. */
  revisions: Record<number, { runId: string; recordId: string; data: unknown; at: string }>;
}

/** Everything one store holds; plain data, so a transaction can keep a copy and put it back. */
interface Tables {
  seq: number;
  runs: Record<string, { seq: number; body: string }>;
  events: Record<string, RunEventView[]>;
  artifacts: Record<string, ArtifactRow>;
  records: Record<string, RecordView & { seq: number }>;
  definitions: Record<string, Omit<StoredDefinition, "files"> & { files: Omit<StoredFile, "size">[] }>;
  blobs: Record<string, Uint8Array>;
  publications: Record<string, PublicationRecord>;
  pendingPublications: PendingPublication[];
}

/** The data of one in-memory store, which storages are opened over. */
export class MemoryDatabase {
  tables: Tables = {
    seq: 0,
    runs: {},
    events: {},
    artifacts: {},
    records: {},
    definitions: {},
    blobs: {},
    publications: {},
    pendingPublications: [],
  };
}

/** A storage over `db` (a new, empty one by default). */
export function openMemoryStorage(db = new MemoryDatabase()): Storage {
  const unit = unitOver(db);
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error("the storage is closed"));
    const turn = queue.then(work, work);
    queue = turn.catch(() => {});
    return turn;
  };
  return {
    kind: "memory",
    journalMode: "memory",
    transaction: (work) =>
      inTurn(async () => {
        const before = structuredClone(db.tables);
        try {
          return await work(unit);
        } catch (error) {
          db.tables = before;
          throw error;
        }
      }),
    read: (work) => inTurn(() => work(unit)),
    close: () => inTurn(() => Promise.resolve(void (closed = true))),
  };
}

function unitOver(db: MemoryDatabase): StorageUnit {
  const t = () => db.tables;
  const next = () => ++t().seq;
  const runs: RunStorage = {
    async insert(run) {
      t().runs[run.runId] = { seq: next(), body: JSON.stringify(run) };
    },
    async update(run) {
      const row = t().runs[run.runId];
      if (row) row.body = JSON.stringify(run);
    },
    async find(runId) {
      const row = Object.hasOwn(t().runs, runId) ? t().runs[runId] : undefined;
      return row ? JSON.parse(row.body) : undefined;
    },
    async hasActive(flowName) {
      return allRuns(t()).some((run) =>
        run.flowName === flowName && ACTIVE_RUN_STATUSES.includes(run.status)
      );
    },
    async list(q) {
      const rows = Object.values(t().runs).map((row) => ({
        seq: row.seq,
        run: JSON.parse(row.body) as RunState,
      }))
        .filter(({ run }) =>
          (q.flowName === undefined || run.flowName === q.flowName) &&
          (q.status === undefined || run.status === q.status)
        );
      const { page, nextCursor } = pageOf(rows, q, { flowName: q.flowName, status: q.status });
      return { runs: page.map((row) => row.run), nextCursor };
    },
    async countByStatus() {
      const counts: Record<string, number> = {};
      for (const run of allRuns(t())) counts[run.status] = (counts[run.status] ?? 0) + 1;
      return counts;
    },
    async activeVersions() {
      const counts = new Map<string, { flowName: string; version: string | null; count: number }>();
      for (const run of allRuns(t()).filter((run) => ACTIVE_RUN_STATUSES.includes(run.status))) {
        const key = `${run.flowName}\0${run.version ?? ""}`;
        const entry = counts.get(key) ?? { flowName: run.flowName, version: run.version ?? null, count: 0 };
        entry.count++;
        counts.set(key, entry);
      }
      return [...counts.values()];
    },
    async unversioned() {
      return allRuns(t()).filter((run) =>
        !run.version && run.status !== "completed" && run.status !== "cancelled"
      );
    },
    async listInterruptible() {
      return allRuns(t()).filter((run) =>
        run.status === "running" ||
        (run.status === "waiting" &&
          (run.pendingAgentCall !== undefined ||
            ["available", "running"].includes(run.pendingCommand?.phase ?? "")))
      );
    },
    async appendEvents(runId, events: NewRunEvent[]) {
      const timeline = t().events[runId] ??= [];
      for (const event of events) {
        timeline.push(JSON.parse(JSON.stringify({ ...event, seq: timeline.length + 1 })));
      }
    },
    async timeline(runId) {
      return structuredClone(t().events[runId] ?? []);
    },
  };
  const artifacts: ArtifactStorage = {
    async commit(c: StageCommit) {
      const data = JSON.parse(JSON.stringify(c.data ?? null));
      const existing = Object.values(t().artifacts).find((row) =>
        row.flowName === c.flowName && row.stageName === c.stageName
      );
      const row: ArtifactRow = existing ?? {
        seq: next(),
        artifactId: c.artifactId,
        flowName: c.flowName,
        stageName: c.stageName,
        revision: 0,
        runId: c.runId,
        recordId: c.recordId,
        createdAt: c.at,
        updatedAt: c.at,
        revisions: {},
      };
      row.revision++;
      Object.assign(row, { runId: c.runId, recordId: c.recordId, updatedAt: c.at });
      row.revisions[row.revision] = { runId: c.runId, recordId: c.recordId, data, at: c.at };
      t().artifacts[row.artifactId] = row;
      t().records[c.recordId] = {
        seq: next(),
        recordId: c.recordId,
        runId: c.runId,
        flowName: c.flowName,
        stageName: c.stageName,
        artifactId: row.artifactId,
        revision: row.revision,
        data,
        answers: JSON.parse(JSON.stringify(c.answers)),
        createdAt: c.at,
      };
      return {
        artifact: (await artifacts.findArtifact({ artifactId: row.artifactId }))!,
        record: (await artifacts.findRecord(c.recordId))!,
      };
    },
    async findArtifact(q: ArtifactQuery, revision?: number) {
      const row = "artifactId" in q
        ? t().artifacts[q.artifactId]
        : Object.values(t().artifacts).find((a) => a.flowName === q.flowName && a.stageName === q.stageName);
      if (!row) return null;
      const wanted = revision ?? row.revision;
      const kept = row.revisions[wanted];
      if (!kept) return null;
      const view = artifactView(row);
      if (wanted === row.revision) return { ...view, data: structuredClone(kept.data) };
      return {
        ...view,
        revision: wanted,
        runId: kept.runId,
        recordId: kept.recordId,
        updatedAt: kept.at,
        data: structuredClone(kept.data),
      };
    },
    async list(q) {
      const rows = Object.values(t().artifacts).filter((row) =>
        (q.flowName === undefined || row.flowName === q.flowName) &&
        (q.stageName === undefined || row.stageName === q.stageName)
      );
      const { page, nextCursor } = pageOf(rows, q, { flowName: q.flowName, stageName: q.stageName });
      return { artifacts: page.map(artifactView), nextCursor };
    },
    async findRecord(recordId) {
      const row = Object.hasOwn(t().records, recordId) ? t().records[recordId] : undefined;
      if (!row) return null;
      const { seq: _seq, ...record } = structuredClone(row);
      return record;
    },
    async committedByRun(runId) {
      const latest = new Map<string, RecordView>();
      for (const row of Object.values(t().records).sort((a, b) => a.seq - b.seq)) {
        if (row.runId === runId) latest.set(row.stageName, row);
      }
      return [...latest.values()].map((row) => ({
        stageName: row.stageName,
        artifactId: row.artifactId,
        revision: row.revision,
        data: structuredClone(row.data),
      }));
    },
    async counts() {
      return { artifacts: Object.keys(t().artifacts).length, records: Object.keys(t().records).length };
    },
  };
  const definitions: DefinitionStorage = {
    async has(version) {
      return Object.hasOwn(t().definitions, version);
    },
    async hasBlob(digest) {
      return Object.hasOwn(t().blobs, digest);
    },
    async putBlob(digest, bytes) {
      t().blobs[digest] ??= bytes.slice();
    },
    async save(definition) {
      t().definitions[definition.version] ??= structuredClone(definition);
    },
    async find(version) {
      const found = Object.hasOwn(t().definitions, version) ? t().definitions[version] : undefined;
      if (!found) return undefined;
      const files = found.files.map((file) => ({ ...file, size: t().blobs[file.digest].length }))
        .sort((a, b) => a.path < b.path ? -1 : 1);
      return { ...structuredClone(found), files };
    },
    async readBlob(digest) {
      return Object.hasOwn(t().blobs, digest) ? t().blobs[digest].slice() : undefined;
    },
    async prune() {
      const named = new Set(allRuns(t()).map((run) => run.version));
      let removed = 0;
      for (const version of Object.keys(t().definitions)) {
        if (!named.has(version)) delete t().definitions[version], removed++;
      }
      const declared = new Set(Object.values(t().definitions).flatMap((d) => d.files.map((f) => f.digest)));
      let blobs = 0;
      for (const digest of Object.keys(t().blobs)) {
        if (!declared.has(digest)) delete t().blobs[digest], blobs++;
      }
      return { definitions: removed, blobs };
    },
  };
  const publications: PublicationStorage = {
    async find(path) {
      return Object.hasOwn(t().publications, path) ? { ...t().publications[path] } : undefined;
    },
    async save(record) {
      t().publications[record.path] = { ...record };
    },
    async list() {
      return Object.values(t().publications).sort((a, b) => a.path < b.path ? -1 : 1).map((r) => ({ ...r }));
    },
    async addPending(pending) {
      t().pendingPublications.push(structuredClone(pending));
    },
    async removePending(artifactId, revision) {
      const at = t().pendingPublications.findIndex((p) =>
        p.artifactId === artifactId && p.revision === revision
      );
      if (at !== -1) t().pendingPublications.splice(at, 1);
      return at !== -1;
    },
    async listPending() {
      return structuredClone(t().pendingPublications);
    },
  };
  return { runs, artifacts, definitions, publications };
}

function allRuns(tables: Tables): RunState[] {
  return Object.values(tables.runs).sort((a, b) => a.seq - b.seq).map((row) => JSON.parse(row.body));
}

function artifactView(row: ArtifactRow): ArtifactView {
  const { seq: _seq, revisions: _revisions, ...view } = row;
  return { ...view };
}

/** One page of `rows`, newest (highest `seq`) first, with the store's own cursors and page sizes. */
function pageOf<Row extends { seq: number }>(
  rows: Row[],
  q: { limit?: number; cursor?: string },
  filters: Record<string, string | undefined>,
): { page: Row[]; nextCursor?: string } {
  const limit = pageLimit(q.limit);
  const after = q.cursor === undefined ? Infinity : decodeCursor(q.cursor, filters);
  const sorted = rows.filter((row) => row.seq < after).sort((a, b) => b.seq - a.seq);
  const page = sorted.slice(0, limit);
  if (sorted.length <= limit) return { page };
  return { page, nextCursor: encodeCursor(page[page.length - 1].seq, filters) };
}
