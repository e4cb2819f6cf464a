/**
 * The invariants the crash loop checks after each SIGKILL: SQLite integrity while the service is down, then,
 * after the restart, every tracked Run against what its client was last told, every acknowledged commit
 * byte for byte, and the RunView invariants of every Run in the store.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { DatabaseSync } from "node:sqlite";
import type { Client } from "../support/sdk_test_client.ts";
import type { RecordView, RunEventView, RunView } from "../../src/engine/views.ts";
import type { AcknowledgedCommit } from "./support.ts";
import { runViolations, tool } from "./probe.ts";
import { temporaryFiles } from "../support/temporary_files.ts";

/** A Run as its clients last saw it; `uncertain` while a call that may change it had no answer yet. */
export interface TrackedRun {
  acked: RunView;
  uncertain: boolean;
  busy: boolean;
}

/** An acknowledged commit with what was first observed of it after a restart (for byte comparisons). */
export interface TrackedCommit extends AcknowledgedCommit {
  recordId?: string;
  artifactId?: string;
  revision?: number;
  recordText?: string;
  revisionText?: string;
}

/** What one verification pass checked. */
export interface Verified {
  runs: number;
  commits: number;
  /** Runs known to wait on a person before the kill, found still waiting. */
  personWaitsKept: number;
  /** Runs known to have an agent call before the kill, found `RUN_INTERRUPTED`. */
  interrupted: number;
  violations: string[];
}

/** `PRAGMA integrity_check` on the database of a stopped service, plus the stored text of known revisions. */
export function checkDatabase(projectDir: string, commits: TrackedCommit[]): string[] {
  const db = new DatabaseSync(`${projectDir}/.weft/weft.db`, { readOnly: true });
  const problems: string[] = [];
  try {
    const rows = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
    const verdict = rows.map((row) => row.integrity_check).join("; ");
    if (verdict !== "ok") problems.push(`integrity_check: ${verdict}`);
    const revision = db.prepare("SELECT data FROM artifact_revisions WHERE artifact_id = ? AND revision = ?");
    for (const commit of commits) {
      if (!commit.artifactId || commit.revision === undefined) continue;
      const row = revision.get(commit.artifactId, commit.revision) as { data: string } | undefined;
      if (!row) problems.push(`artifact ${commit.artifactId} lost revision ${commit.revision}`);
      else if (commit.revisionText === undefined) commit.revisionText = row.data;
      else if (row.data !== commit.revisionText) {
        problems.push(`artifact ${commit.artifactId} revision ${commit.revision} changed bytes`);
      }
    }
  } finally {
    db.close();
  }
  return problems;
}

/** The stages whose commits publish a file (`workflow/stage`). */
const PUBLISHING = new Set(["intent/specification", "intent/plan"]);

const OUTCOMES = new Set(["artifact_published", "publish_skipped", "publish_failed"]);

/**
 * The publications of a stopped service: none has two outcomes; once `settled` (the service started and
 * stopped since the last kill), none is still pending and every commit of a publishing stage has its
 * outcome. And no temporary file of a write is ever among the project's files.
 */
export async function checkPublications(projectDir: string, settled: boolean): Promise<string[]> {
  const db = new DatabaseSync(`${projectDir}/.weft/weft.db`, { readOnly: true });
  const problems: string[] = [];
  try {
    const events = db.prepare(
      "SELECT r.flow_name AS flow, e.type AS type, e.body AS body FROM run_events e JOIN runs r ON r.id = e.run_id",
    ).all() as { flow: string; type: string; body: string }[];
    const outcomes = new Map<string, number>();
    const committed: string[] = [];
    for (const { flow, type, body } of events) {
      const event = JSON.parse(body) as { stageName?: string; artifactId?: string; revision?: number };
      const key = `${event.artifactId}@${event.revision}`;
      if (OUTCOMES.has(type)) outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if (type === "artifact_committed" && PUBLISHING.has(`${flow}/${event.stageName}`)) committed.push(key);
    }
    for (const [key, count] of outcomes) {
      if (count > 1) problems.push(`publication of ${key} has ${count} outcomes`);
    }
    if (settled) {
      const { n } = db.prepare("SELECT COUNT(*) AS n FROM pending_publications").get() as { n: number };
      if (n) problems.push(`${n} publications still pending after a start`);
      for (const key of committed) {
        if (!outcomes.has(key)) {
          problems.push(`commit ${key} of a publishing stage has no publication outcome`);
        }
      }
    }
  } finally {
    db.close();
  }
  for (const path of await temporaryFiles(projectDir)) problems.push(`temporary file ${path} in the project`);
  return problems;
}

/** Checks every tracked Run, every acknowledged commit and every stored Run after a restart. */
export async function verifyAfterRestart(
  client: Client,
  runs: Map<string, TrackedRun>,
  commits: TrackedCommit[],
): Promise<Verified> {
  const violations: string[] = [];
  let personWaitsKept = 0;
  let interrupted = 0;
  const got = async <T>(name: string, args: Record<string, unknown>): Promise<T | undefined> => {
    const outcome = await tool<T>(client, name, args);
    if (outcome.ok) return outcome.value;
    violations.push(`${name} ${JSON.stringify(args)} failed after restart: ${outcome.text}`);
    return undefined;
  };
  for (const [runId, tracked] of runs) {
    const run = (await got<{ run: RunView }>("get_run", { runId }))?.run;
    if (!run) continue;
    const problems = expectAfterRestart(tracked, run);
    violations.push(...problems);
    if (!tracked.uncertain && problems.length === 0) {
      if (tracked.acked.pendingAction) personWaitsKept++;
      else if (tracked.acked.pendingAgentCall) interrupted++;
    }
    tracked.acked = run;
    tracked.uncertain = false;
  }
  for (const commit of commits) violations.push(...await verifyCommit(got, commit));
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await got<{ runs: RunView[]; nextCursor?: string }>("list_runs", { limit: 200, cursor });
    if (!page) break;
    for (const run of page.runs) {
      seen.add(run.runId);
      violations.push(...runViolations(run), ...restartedShape(run));
    }
    cursor = page.nextCursor;
  } while (cursor);
  for (const runId of runs.keys()) {
    if (!seen.has(runId)) violations.push(`run ${runId} missing from list_runs`);
  }
  return { runs: seen.size, commits: commits.length, personWaitsKept, interrupted, violations };
}

/** What a restarted service may never show: a Run still running or still publishing an agent call. */
function restartedShape(run: RunView): string[] {
  if (run.status === "running") return [`run ${run.runId} still running after a restart`];
  if (run.pendingAgentCall) return [`run ${run.runId} still publishes an agent call after a restart`];
  return [];
}

/** Compares a Run after the restart with what its client was last told. */
function expectAfterRestart(tracked: TrackedRun, run: RunView): string[] {
  const before = tracked.acked;
  if (tracked.uncertain) return [];
  const where = `run ${run.runId}`;
  if (before.pendingAction) {
    const still = run.status === "waiting" && run.pendingAction?.id === before.pendingAction.id;
    return still ? [] : [`${where} waited on a person (${before.pendingAction.id}) but is now ${run.status}`];
  }
  if (before.pendingAgentCall || before.status === "running") {
    const interrupted = run.status === "failed" && run.lastError?.code === "RUN_INTERRUPTED";
    return interrupted
      ? []
      : [`${where} had an agent call but is ${run.status} ${run.lastError?.code ?? ""}`];
  }
  if (run.status !== before.status) return [`${where} was ${before.status} but is now ${run.status}`];
  return [];
}

type Getter = <T>(name: string, args: Record<string, unknown>) => Promise<T | undefined>;

/** The acknowledged commit's record exists with the submitted data and its bytes never change. */
async function verifyCommit(got: Getter, commit: TrackedCommit): Promise<string[]> {
  const where = `commit of ${commit.runId}/${commit.stageName}`;
  if (!commit.recordId) {
    const found = await got<{ timeline?: RunEventView[] }>("get_run", {
      runId: commit.runId,
      timeline: true,
    });
    const event = found?.timeline?.findLast((entry) =>
      entry.type === "artifact_committed" && entry.stageName === commit.stageName
    );
    if (!event) return [`${where}: acknowledged but no artifact_committed event`];
    commit.recordId = event.recordId as string;
    commit.artifactId = event.artifactId as string;
    commit.revision = event.revision as number;
  }
  const outcome = await got<{ record: RecordView | null }>("get_record", { recordId: commit.recordId });
  const record = outcome?.record;
  if (!record) return [`${where}: record ${commit.recordId} is gone`];
  const problems: string[] = [];
  if (!isDeepStrictEqual(record.data, commit.data)) {
    problems.push(`${where}: record data differs from the answer`);
  }
  const text = JSON.stringify(record);
  if (commit.recordText === undefined) commit.recordText = text;
  else if (commit.recordText !== text) problems.push(`${where}: record ${commit.recordId} changed bytes`);
  const artifact = (await got<{ artifact: { revision: number } | null }>("get_artifact", {
    artifactId: commit.artifactId,
  }))?.artifact;
  if (!artifact) problems.push(`${where}: artifact ${commit.artifactId} is gone`);
  else if (artifact.revision < commit.revision!) problems.push(`${where}: artifact revision went backwards`);
  return problems;
}
