/**
 * What a human action shows beside its question so that a person can judge it: the step's title, the list
 * item it is about (in a list stage: its id, title, description and the requirements it serves with their
 * acceptance criteria) and the evidence the step declares (the agent's summary, a command's outcome with the
 * useful part of its output, the changes). It is read from the Run as the action opens and published in the
 * action's request, so every client (terminal, Studio, the IDE's form) shows the same things.
 *
 * @module
 */
import { commandOutcome, type CommandResult } from "./command_step.ts";
import { getAt } from "./json_pointer.ts";
import { currentItem } from "./list_transitions.ts";
import { requirementsServed } from "./plan_input.ts";
import type { RunChange } from "./run_change.ts";
import type { EvidenceDef } from "./workflow/manifest.ts";
import type { ActionReview, ChangesEvidence, Evidence, ReviewItem, VerifyEvidence } from "./views.ts";
import { outputExcerpt } from "../lib/output_excerpt.ts";

/** The review parts of the action the current step of `change` opens. */
export function actionReview(change: RunChange, declared: EvidenceDef | undefined): ActionReview {
  const { run } = change;
  const title = change.step.title;
  const listed = run.list && change.stage.forEach ? currentItem(run.list) : undefined;
  const item = listed && reviewItem(listed, run.input?.data);
  const evidence = declared && evidenceOf(run.state, declared);
  return {
    ...(title ? { title } : {}),
    ...(item ? { item } : {}),
    ...(evidence && Object.keys(evidence).length ? { evidence } : {}),
  };
}

function reviewItem(
  item: { id: string; title: string; attempts: number; data: unknown },
  input: unknown,
): ReviewItem {
  const description = (item.data as { description?: unknown } | null)?.description;
  const requirements = requirementsServed(input, item.data);
  return {
    id: item.id,
    title: item.title,
    attempt: item.attempts,
    ...(typeof description === "string" && description.trim() ? { description } : {}),
    ...(requirements.length ? { requirements } : {}),
  };
}

function evidenceOf(state: unknown, declared: EvidenceDef): Evidence {
  const evidence: Evidence = {};
  const summary = declared.summary === undefined ? undefined : getAt(state, declared.summary);
  if (typeof summary === "string" && summary.trim()) evidence.summary = summary;
  const verify = declared.verify === undefined ? undefined : verifyOf(getAt(state, declared.verify));
  if (verify) evidence.verify = verify;
  const changes = declared.changes === undefined ? undefined : changesOf(getAt(state, declared.changes));
  if (changes) evidence.changes = changes;
  return evidence;
}

/** A command step's result as evidence; undefined when the pointer holds none (the command has not run). */
function verifyOf(value: unknown): VerifyEvidence | undefined {
  const result = value as (CommandResult & { run?: unknown }) | undefined;
  if (typeof result !== "object" || result === null || !("timedOut" in result)) return undefined;
  return {
    ...(Array.isArray(result.run) ? { run: result.run.map(String) } : {}),
    outcome: commandOutcome(result),
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    excerpt: outputExcerpt(result.stdout?.text ?? "", result.stderr?.text ?? ""),
  };
}

function changesOf(value: unknown): ChangesEvidence | undefined {
  const changes = value as Partial<ChangesEvidence> | undefined;
  if (typeof changes !== "object" || changes === null || !Array.isArray(changes.files)) return undefined;
  return {
    files: changes.files,
    diff: typeof changes.diff === "string" ? changes.diff : "",
    cutBytes: typeof changes.cutBytes === "number" ? changes.cutBytes : 0,
  };
}
