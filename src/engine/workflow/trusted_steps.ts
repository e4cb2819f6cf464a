/**
 * The steps of a project's workflows that the person's trust covers, each exactly as trusted: the command
 * steps (the workflow, stage and step that declare one and exactly what it runs: vector or project command
 * name with the names tried after it, folder, environment names) and the agent steps that declare tools changing the project's files
 * (which of those tools). Read through the {@linkcode ProjectTree} port, and read again only when something
 * under `workflows/` changed.
 *
 * @module
 */
import type { ProjectTree } from "../project_tree.ts";
import { loadWorkflow } from "./loader.ts";
import { EDIT_TOOL_KINDS, type StepDef } from "./manifest.ts";
import { projectWorkflowsStamp, readProjectSources } from "./source.ts";

/** Where a step is declared. */
export interface StepSite {
  workflow: string;
  stage: string;
  step: string;
}

/** One command step of a project workflow, as trusted. */
export interface DeclaredCommandStep extends StepSite {
  run: string[] | string;
  /** The project commands tried in order when weft.json does not name `run`: they decide what runs too. */
  fallback?: string[];
  cwd?: string;
  env: string[];
}

/** One agent step of a project workflow that may change the project's files, as trusted. */
export interface DeclaredEditStep extends StepSite {
  /** The edit tool kinds it declares, sorted. */
  tools: string[];
}

/** The steps of a project's workflows that need trust, in a stable order. */
export interface TrustedSteps {
  commandSteps: DeclaredCommandStep[];
  editSteps: DeclaredEditStep[];
}

const cache = new WeakMap<ProjectTree, { stamp: string; steps: TrustedSteps }>();

/** Every command step of the project's workflows that load, in a stable order. */
export function projectCommandSteps(tree: ProjectTree): DeclaredCommandStep[] {
  return projectTrustedSteps(tree).commandSteps;
}

/** Every step of the project's workflows that load and need trust, in a stable order. */
export function projectTrustedSteps(tree: ProjectTree): TrustedSteps {
  const stamp = projectWorkflowsStamp(tree);
  const cached = cache.get(tree);
  if (cached?.stamp === stamp) return cached.steps;
  const steps: TrustedSteps = { commandSteps: [], editSteps: [] };
  for (const source of readProjectSources(tree)) {
    const entry = loadWorkflow(source);
    if (!entry.ok) continue;
    for (const [stage, def] of Object.entries(entry.workflow.manifest.stages)) {
      for (const [step, candidate] of Object.entries(def.steps)) {
        const site = { workflow: entry.name, stage, step };
        if (candidate.kind === "command") {
          steps.commandSteps.push({
            ...site,
            run: candidate.run,
            ...(candidate.fallback !== undefined ? { fallback: candidate.fallback } : {}),
            ...(candidate.cwd !== undefined ? { cwd: candidate.cwd } : {}),
            env: candidate.env ?? [],
          });
        }
        const edits = declaredEditStep(site, candidate);
        if (edits) steps.editSteps.push(edits);
      }
    }
  }
  steps.commandSteps.sort(bySite);
  steps.editSteps.sort(bySite);
  cache.set(tree, { stamp, steps });
  return steps;
}

/** The step at `site` as its edit tools are trusted, or undefined when it declares none. */
export function declaredEditStep(site: StepSite, step: StepDef): DeclaredEditStep | undefined {
  if (step.kind !== "agent") return undefined;
  const tools = [...new Set((step.tools ?? []).map((tool) => tool.kind))]
    .filter((kind) => EDIT_TOOL_KINDS.includes(kind)).sort();
  return tools.length ? { ...site, tools } : undefined;
}

function bySite(a: StepSite, b: StepSite): number {
  const key = (entry: StepSite) => `${entry.workflow}\0${entry.stage}\0${entry.step}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
