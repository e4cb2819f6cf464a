/**
 * What a `check` step says about the stage state: one line of feedback per rule that fails, in the words
 * whoever repairs the state (an agent, a person) needs to act on.
 *
 * @module
 */
import { getAt } from "./json_pointer.ts";
import { compileSchema } from "./json_schema.ts";
import type { Manifest, StepDef } from "./workflow/manifest.ts";

/** The rules of one `check` step. */
export type CheckRules = Extract<StepDef, { kind: "check" }>["rules"];

/** One rule that says every id of an earlier stage's list is covered. */
export type CoversRule = Extract<CheckRules[number], { covers: unknown }>;

/** What each earlier stage of the Run committed (its latest revision's data), by stage name. */
export type CommittedData = ReadonlyMap<string, unknown>;

/** Whether any rule of a `check` step of the workflow needs what earlier stages of its Run committed. */
export function needsCommitted(manifest: Manifest): boolean {
  return Object.values(manifest.stages).some((stage) =>
    Object.values(stage.steps).some((step) =>
      step.kind === "check" && step.rules.some((rule) => "covers" in rule)
    )
  );
}

/** The feedback of `rules` on `state` (and on `committed`, for `covers`); empty when every rule holds. */
export function checkFeedback(
  rules: CheckRules,
  state: unknown,
  committed: CommittedData = new Map(),
): string[] {
  const feedback: string[] = [];
  for (const rule of rules) {
    const value = getAt(state, rule.at);
    // A missing value is said as missing: the rule's message describes a value that is there but wrong
    // ("keep the headline short"), and would send whoever repairs it the wrong way.
    if (value === undefined) {
      feedback.push(`${rule.at || "/"}: missing`);
      continue;
    }
    if ("covers" in rule) {
      const uncovered = uncoveredIds(rule, value, committed);
      if (uncovered.length) {
        feedback.push(`${rule.message ?? `${rule.at}: some ids are not covered`}: ${uncovered.join(", ")}`);
      }
      continue;
    }
    const verdict = compileSchema(rule.schema)(value);
    if (verdict.ok) continue;
    if (rule.message) feedback.push(rule.message);
    else {
      feedback.push(
        ...verdict.errors.map((
          error,
        ) => (error.startsWith("/:") ? rule.at + error.slice(1) : rule.at + error)),
      );
    }
  }
  return feedback;
}

/**
 * The ids of the covered stage's items that no item at the rule's `at` names in its `by` list, in their own
 * order. A Run that committed no such stage (a revision Run, say) has nothing to cover.
 */
function uncoveredIds(rule: CoversRule, value: unknown, committed: CommittedData): string[] {
  const { stage, items, id = "/id", by } = rule.covers;
  if (!committed.has(stage)) return [];
  const wanted = getAt(committed.get(stage), items);
  const ids = (Array.isArray(wanted) ? wanted : []).map((item) => getAt(item, id))
    .filter((found): found is string => typeof found === "string");
  const named = new Set(
    (Array.isArray(value) ? value : []).flatMap((item) => {
      const list = getAt(item, by);
      return Array.isArray(list) ? list.filter((entry) => typeof entry === "string") : [];
    }),
  );
  return ids.filter((candidate) => !named.has(candidate));
}
