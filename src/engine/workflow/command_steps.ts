/**
 * The command steps of a project's workflows, as the person's trust covers them: each with the workflow,
 * stage and step that declare it and exactly what it runs (vector or project command name, folder,
 * environment names). Read through the {@linkcode ProjectTree} port, and read again only when something under
 * `workflows/` changed.
 *
 * @module
 */
import type { ProjectTree } from "../project_tree.ts";
import { loadWorkflow } from "./loader.ts";
import { projectWorkflowsStamp, readProjectSources } from "./source.ts";

/** One command step of a project workflow, as trusted. */
export interface DeclaredCommandStep {
  workflow: string;
  stage: string;
  step: string;
  run: string[] | string;
  cwd?: string;
  env: string[];
}

const cache = new WeakMap<ProjectTree, { stamp: string; steps: DeclaredCommandStep[] }>();

/** Every command step of the project's workflows that load, in a stable order. */
export function projectCommandSteps(tree: ProjectTree): DeclaredCommandStep[] {
  const stamp = projectWorkflowsStamp(tree);
  const cached = cache.get(tree);
  if (cached?.stamp === stamp) return cached.steps;
  const steps: DeclaredCommandStep[] = [];
  for (const source of readProjectSources(tree)) {
    const entry = loadWorkflow(source);
    if (!entry.ok) continue;
    for (const [stage, def] of Object.entries(entry.workflow.manifest.stages)) {
      for (const [step, candidate] of Object.entries(def.steps)) {
        if (candidate.kind !== "command") continue;
        steps.push({
          workflow: entry.name,
          stage,
          step,
          run: candidate.run,
          ...(candidate.cwd !== undefined ? { cwd: candidate.cwd } : {}),
          env: candidate.env ?? [],
        });
      }
    }
  }
  const key = (entry: DeclaredCommandStep) => `${entry.workflow}\0${entry.stage}\0${entry.step}`;
  steps.sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  cache.set(tree, { stamp, steps });
  return steps;
}
