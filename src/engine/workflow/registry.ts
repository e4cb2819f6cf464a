/**
 * The workflows a service knows: the embedded ones and the project's own, each either loaded or unavailable
 * with its reason. A project workflow may not take an embedded one's name.
 *
 * @module
 */
import { type ModelBlock, modelBlock, type ModelRoles } from "../model_roles.ts";
import type { AgentExecutor, WorkflowView } from "../views.ts";
import { type LoadedWorkflow, loadWorkflow, type WorkflowEntry } from "./loader.ts";
import type { ProjectTree } from "../project_tree.ts";
import { projectWorkflowsStamp, readProjectSources, type WorkflowSource } from "./source.ts";

/** Loaded and unavailable workflows by name. */
export class WorkflowRegistry {
  #entries = new Map<string, WorkflowEntry>();
  #stamp = "";
  #loaded = false;

  /** Loads nothing yet: the first use does, so that start-up does not wait for workflows no request asked for. */
  constructor(readonly embedded: WorkflowSource[], readonly tree: ProjectTree) {}

  /** Loads the project's workflows again when anything under `workflows/` changed since the last load. */
  refresh(): void {
    if (!this.#loaded || projectWorkflowsStamp(this.tree) !== this.#stamp) this.reload();
  }

  /** Reads every source again; Runs already started keep their stored position. */
  reload(): void {
    this.#loaded = true;
    this.#stamp = projectWorkflowsStamp(this.tree);
    const entries = new Map<string, WorkflowEntry>();
    for (const source of this.embedded) entries.set(source.dirName, loadWorkflow(source));
    const embeddedNames = new Set(entries.keys());
    for (const source of readProjectSources(this.tree)) {
      const entry = loadWorkflow(source);
      if (embeddedNames.has(entry.name) || embeddedNames.has(source.dirName)) {
        entries.set(`project:${entry.name}`, {
          ok: false,
          name: entry.name,
          origin: "project",
          title: entry.ok ? entry.workflow.manifest.title : entry.title,
          description: entry.ok ? entry.workflow.manifest.description : entry.description,
          reason:
            `${source.label}: the name "${entry.name}" belongs to an embedded workflow; rename this one`,
        });
      } else entries.set(entry.name, entry);
    }
    this.#entries = entries;
  }

  /** The entry the name refers to (an embedded workflow wins over a clashing project one). */
  find(name: string): WorkflowEntry | undefined {
    return this.#current().get(name);
  }

  /** The loaded workflow of this name, or undefined when it is unknown or unavailable. */
  loaded(name: string): LoadedWorkflow | undefined {
    const entry = this.#current().get(name);
    return entry?.ok ? entry.workflow : undefined;
  }

  /** How many workflows loaded (`available`) and how many did not. */
  availability(): { available: number; unavailable: number } {
    const entries = [...this.#current().values()];
    const available = entries.filter((entry) => entry.ok).length;
    return { available, unavailable: entries.length - available };
  }

  /** Every workflow, with readiness when `executor` executes agent steps, given the service's model roles. */
  views(executor: AgentExecutor, models: ModelRoles): WorkflowView[] {
    return [...this.#current().values()].map((entry) => toView(entry, executor, models))
      .sort((a, b) => a.name.localeCompare(b.name) || a.source.localeCompare(b.source));
  }

  #current(): Map<string, WorkflowEntry> {
    if (!this.#loaded) this.reload();
    return this.#entries;
  }
}

/**
 * Who executes the agent steps of a Run of `workflow` started where `requested` would: the service's model,
 * unless no model is configured at all; then the IDE's agent does, finding the Run through its own tools (so
 * a person without a model of weft's can still start any workflow from the terminal or Studio).
 */
export function executorFor(
  workflow: LoadedWorkflow,
  requested: AgentExecutor,
  models: ModelRoles,
): AgentExecutor {
  return requested === "service" && workflow.hasAgentSteps && !models.configured() ? "mcp_client" : requested;
}

/**
 * Why this workflow cannot run now with `executor` executing its agent steps, or undefined: when the
 * service's model executes them, every role their steps name must be ready.
 */
export function readinessBlock(
  workflow: LoadedWorkflow,
  executor: AgentExecutor,
  models: ModelRoles,
): ModelBlock | undefined {
  return executor === "mcp_client" || !workflow.hasAgentSteps ? undefined : modelBlock(workflow, models);
}

function toView(entry: WorkflowEntry, executor: AgentExecutor, models: ModelRoles): WorkflowView {
  if (!entry.ok) {
    return {
      name: entry.name,
      title: entry.title,
      description: entry.description,
      exclusive: false,
      stages: [],
      hasAgentSteps: false,
      available: false,
      ready: false,
      reason: entry.reason,
      source: entry.origin,
    };
  }
  const { manifest } = entry.workflow;
  const agentExecutor = executorFor(entry.workflow, executor, models);
  const blocked = readinessBlock(entry.workflow, agentExecutor, models);
  return {
    name: manifest.name,
    title: manifest.title,
    description: manifest.description,
    exclusive: manifest.exclusive ?? false,
    stages: Object.keys(manifest.stages),
    hasAgentSteps: entry.workflow.hasAgentSteps,
    available: true,
    ready: !blocked,
    ...(blocked ? { reason: blocked.reason } : {}),
    ...(entry.workflow.hasAgentSteps ? { agentExecutor } : {}),
    source: entry.workflow.origin,
  };
}
