/**
 * What a `check` step says about the stage state: one line of feedback per rule that fails, in the words
 * whoever repairs the state (an agent, a person) needs to act on.
 *
 * @module
 */
import { getAt } from "./json_pointer.ts";
import { compileSchema } from "./json_schema.ts";
import type { StepDef } from "./workflow/manifest.ts";

/** The rules of one `check` step. */
export type CheckRules = Extract<StepDef, { kind: "check" }>["rules"];

/** The feedback of `rules` on `state`; empty when every rule holds. */
export function checkFeedback(rules: CheckRules, state: unknown): string[] {
  const feedback: string[] = [];
  for (const rule of rules) {
    const value = getAt(state, rule.at);
    // A missing value is said as missing: the rule's message describes a value that is there but wrong
    // ("keep the headline short"), and would send whoever repairs it the wrong way.
    if (value === undefined) {
      feedback.push(`${rule.at || "/"}: missing`);
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
