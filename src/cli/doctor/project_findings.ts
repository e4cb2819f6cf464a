/**
 * What `weft doctor` finds of the project's own files: workflows that do not load, schemas an older weft
 * wrote, the model roles and whether the person trusts them, and published files edited since. The model
 * servers are dialled only for an entry the person configured or trusted.
 *
 * @module
 */

import { join } from "node:path";
import type { WorkflowView } from "../../client/views.ts";
import { inspectModels, type ModelsInspection } from "../../service/inspect.ts";
import { CONFIG_SCHEMA_PATH, PROJECT_SCHEMAS } from "../scaffold/scaffold.ts";
import { VERSION } from "../../version.ts";
import type { Finding } from "./finding.ts";

/** What `status` says of the files weft published. */
export interface Publications {
  files: number;
  changed: { path: string; revision: number; state: "edited" | "missing" }[];
}

/** Published files a person changed since weft wrote them: kept as they are, and weft says so. */
export function publicationFindings(publications: Publications): Finding[] {
  if (publications.files === 0) return [];
  if (publications.changed.length === 0) {
    const { files } = publications;
    const message = files === 1
      ? "the published file is as weft wrote it"
      : `the ${files} published files are as weft wrote them`;
    return [{ check: "publications", state: "ok", message }];
  }
  return [{
    check: "publications",
    state: "note",
    message: publications.changed.map((file) =>
      file.state === "edited"
        ? `${file.path} was edited since weft wrote revision ${file.revision}; weft leaves it as it is`
        : `${file.path} (revision ${file.revision}) was removed; the next commit writes it again`
    ).join("\n"),
    fix: reviseFix(publications.changed.filter((file) => file.state === "edited").map((file) => file.path)),
  }];
}

/** Each edited file's own `weft revise` command, which runs as printed; or what a removed file needs. */
function reviseFix(edited: string[]): string {
  if (!edited.length) return "nothing to do: weft writes a removed file again at the next commit";
  const commands = edited.map((path) => `\`weft revise ${path}\``).join(", ");
  return `${commands} brings ${edited.length === 1 ? "the edit" : "each edit"} back as the next revision ` +
    "once you confirm it; or delete the file to let weft write it again";
}

/** What doctor needs to know of a workflow to say whether it loads. */
export type Loading = Pick<WorkflowView, "name" | "available" | "reason">;

/** Each workflow that does not load, with where to fix it; one finding when all load. */
export function workflowFindings(workflows: Loading[]): Finding[] {
  const broken = workflows.filter((w) => !w.available);
  if (!broken.length) {
    return [{
      check: "workflows",
      state: "ok",
      message: `${workflows.length} workflow(s) load without errors`,
    }];
  }
  return broken.map((w) => ({
    check: "workflows" as const,
    state: "problem" as const,
    message: `workflow "${w.name}" does not load:\n${w.reason ?? "(no reason given)"}`,
    // A workflow name has no dot: one that does is a JSON file placed directly in workflows/.
    fix:
      (w.name.endsWith(".json")
        ? `move workflows/${w.name} to workflows/<name>/workflow.json, <name> being its "name"; `
        : `edit workflows/${w.name}/ as each line says; `) +
      "the service picks up edits without a restart (docs/workflows.md describes the format)",
  }));
}

/**
 * The schemas `weft init` wrote for editors: weft never rewrites them by itself, so after an upgrade they may
 * describe an older format. A schema the project does not have is nothing to report.
 */
export async function schemaFindings(projectDir: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { path, text: expected } of PROJECT_SCHEMAS) {
    let text: string;
    try {
      text = await Deno.readTextFile(join(projectDir, path));
    } catch {
      continue;
    }
    findings.push(
      text === expected ? { check: "schema", state: "ok", message: `${path} is weft ${VERSION}'s` } : {
        check: "schema",
        state: "note",
        message: `${path} differs from weft ${VERSION}'s (an older weft wrote it, or it was edited); ` +
          "editors may flag valid fields or miss wrong ones",
        fix: "weft init  (rewrites only the schemas that differ)",
      },
    );
  }
  return findings;
}

/**
 * The service's model roles: each one configured is checked over the network (its server answers, accepts
 * the key, lists the model); without any, a note says the IDE's agent does the terminal's agent steps. Keys
 * are read from this shell's environment, which should match the service's.
 */
export async function modelFindings(projectDir: string, workflows: WorkflowView[]): Promise<Finding[]> {
  const models = inspectModels(projectDir);
  const trust = projectTrustFindings(models);
  const configured = models.roles.filter((role) => role.configured);
  if (!configured.length) {
    const needing = workflows.filter((w) => w.available && w.hasAgentSteps).map((w) => w.name);
    return [...trust, {
      check: "model",
      state: "note",
      message: "no service-side model is configured (weft.json)" +
        (needing.length
          ? `\nyour IDE's agent does the agent steps of Runs started here (${needing.join(", ")}); ` +
            "each says what to tell it"
          : ""),
      fix: "connect your IDE with the entry `weft config claude` prints (or codex, cursor, vscode); or " +
        "configure a model in weft.json (docs/models.md)",
    }];
  }
  return [
    ...trust,
    ...await Promise.all(configured.map(async (readiness): Promise<Finding> => {
      const { role } = readiness;
      if (!readiness.resolves || !readiness.ready) {
        const what = readiness.provider
          ? ` (${readiness.provider} ${readiness.model} at ${readiness.baseURL}, key ${
            readiness.apiKeyEnv ?? "none"
          }, from ${origin(readiness.origin, readiness.trusted)})`
          : "";
        return {
          check: "model",
          state: "problem",
          message: `role "${role}"${what}: ${readiness.reason}`,
          fix: readiness.trusted === false
            ? "weft trust  (shows what weft.json asks for, then asks)"
            : readiness.resolves
            ? "see docs/models.md"
            : `correct weft.json against ${CONFIG_SCHEMA_PATH} (weft init writes it)`,
        };
      }
      // Only an entry the person configured or trusted is ever dialled.
      const checked = await models.probe(role);
      return {
        check: "model",
        state: checked.ok ? "ok" : "problem",
        message: `${checked.message} (from ${origin(readiness.origin, readiness.trusted)})`,
        fix: checked.fix,
      };
    })),
  ];
}

/** Where a model role's entry comes from, as a finding names it. */
function origin(from: string | undefined, trusted: boolean | undefined): string {
  return from === "user" ? "your user file" : `weft.json, ${trusted ? "trusted" : "not trusted"}`;
}

/** Whether the person trusts the project's weft.json, and a trust record weft cannot read. */
function projectTrustFindings(models: ModelsInspection): Finding[] {
  const findings: Finding[] = [];
  if (models.trustRecordProblem !== undefined) {
    findings.push({
      check: "trust",
      state: "problem",
      message:
        `the project trust record cannot be used, so no project is trusted: ${models.trustRecordProblem}`,
      fix: "remove that file, then `weft trust` in each project you trust",
    });
  }
  const review = models.trust;
  if (review.state === "trusted") {
    findings.push({
      check: "trust",
      state: "ok",
      message: `you trust the project's ${trustedParts(review.content).join(", ")} (${review.digest})`,
    });
  } else if (review.state === "not_trusted") {
    findings.push({
      check: "trust",
      state: "problem",
      message: `you have not trusted the project's ${trustedParts(review.content).join(", ")}: ` +
        "no model is dialled and no command runs until you do",
      fix: "weft trust  (shows each model's provider, URL and key variable and each command, then asks)",
    });
  }
  return findings;
}

/** What the project's content asks weft to trust, named as a person reads it: only what it holds. */
function trustedParts(content: ModelsInspection["trust"]["content"]): string[] {
  const { models = {}, commands = {}, commandSteps = [], editSteps = [] } = content;
  return [
    ...(Object.keys(models).length ? [`models in weft.json (${Object.keys(models).join(", ")})`] : []),
    ...(Object.keys(commands).length ? [`commands in weft.json (${Object.keys(commands).join(", ")})`] : []),
    ...(commandSteps.length ? [`workflows' command steps (${commandSteps.length})`] : []),
    ...(editSteps.length ? [`workflows' file edits (${editSteps.length})`] : []),
  ];
}
