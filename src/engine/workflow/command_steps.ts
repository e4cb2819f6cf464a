/**
 * The command steps of a project's workflows, as the person's trust covers them: each with the workflow,
 * stage and step that declare it and exactly what it runs (vector or project command name, folder,
 * environment names). Read from disk, and read again only when something under `workflows/` changed.
 *
 * @module
 */
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

const cache = new Map<string, { stamp: string; steps: DeclaredCommandStep[] }>();

/** Every command step of the project's workflows that load, in a stable order. */
export function projectCommandSteps(projectDir: string): DeclaredCommandStep[] {
  const stamp = projectWorkflowsStamp(projectDir);
  const cached = cache.get(projectDir);
  if (cached?.stamp === stamp) return cached.steps;
  const steps: DeclaredCommandStep[] = [];
  for (const source of readProjectSources(projectDir)) {
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
  cache.set(projectDir, { stamp, steps });
  return steps;
}
