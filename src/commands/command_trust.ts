/**
 * Whether the person trusts a command the service is about to run, and the argument vector it resolves to.
 * A project workflow's command step runs only when the project's trusted content (`trusted_content.ts`)
 * holds exactly that step (vector, or name with its fallbacks; folder, variable names) and the person trusts
 * that content; a step naming a project command also needs `weft.json`'s `commands` trusted. An embedded
 * workflow's own vector is trusted by shipping.
 *
 * @module
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import type { CommandSpec } from "../engine/command_step.ts";
import type { ModelConfig } from "../model/config.ts";

/** Where the Run stands: the step whose command it is. */
export interface CommandSite {
  runId: string;
  workflow: string;
  stage: string;
  step: string;
}

/** The vector to run, or why not: `untrusted` leaves the Run waiting, `unavailable` fails it. */
export type CommandDecision =
  | { kind: "run"; argv: string[] }
  | { kind: "untrusted"; reason: string }
  | { kind: "unavailable"; reason: string };

/** Decides from the configuration as read now whether `spec` at `site` may run, and what it runs. */
export function decideCommand(config: ModelConfig, site: CommandSite, spec: CommandSpec): CommandDecision {
  const { trust, project } = config;
  const { runId, ...where } = site;
  const untrusted: CommandDecision = {
    kind: "untrusted",
    reason: "this command comes from the project's files, which you have not trusted as they are now: " +
      `review them with \`weft trust\`, then resume with \`weft retry ${runId}\` (or cancel the Run)`,
  };
  if (spec.origin === "project") {
    const wanted = canonicalJson({
      ...where,
      run: spec.run,
      ...(spec.fallback !== undefined ? { fallback: spec.fallback } : {}),
      ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
      env: spec.env,
    });
    const declared = (trust.content.commandSteps ?? []).some((entry) => canonicalJson(entry) === wanted);
    if (!declared || !trust.trusted) return untrusted;
  }
  if (typeof spec.run !== "string") return { kind: "run", argv: spec.run };
  if (project.kind !== "ok") {
    return {
      kind: "unavailable",
      reason: project.kind === "invalid"
        ? `the project command "${spec.run}" cannot be read: ${project.problem}`
        : `the project command "${spec.run}" is not named: the project has no weft.json`,
    };
  }
  const names = [spec.run, ...(spec.fallback ?? [])];
  const name = names.find((candidate) => Object.hasOwn(project.commands, candidate));
  if (name === undefined) {
    const named = names.map((candidate) => `"${candidate}"`).join(" or ");
    return { kind: "unavailable", reason: `weft.json names no command ${named} in its \`commands\`` };
  }
  const argv = project.commands[name];
  return trust.trusted ? { kind: "run", argv } : untrusted;
}
