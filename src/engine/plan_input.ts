/**
 * What a Run's intent names when its workflow takes a plan (`"input": "plan"`): an `intent` Run (its
 * committed `plan`), a plan Artifact id, or the path of a plan file weft published. Resolved once, when the
 * Run starts, inside its creating transaction, into the plan, the specification committed beside it, and
 * the Artifact revision the Run's list then follows. A name that resolves to nothing usable is refused with
 * `INVALID_REQUEST` saying what was looked for, and no Run is created.
 *
 * @module
 */
import { invalid } from "../errors.ts";
import type { RunInput } from "./run_state.ts";
import type { StorageUnit } from "./storage.ts";
import type { ArtifactView } from "./views.ts";
import type { LatestInput } from "./list_transitions.ts";

/** The stage of the `intent` workflow that commits the plan, and the one that commits its specification. */
const PLAN_STAGE = "plan";
const SPECIFICATION_STAGE = "specification";

/** The plan `intent` names, with its specification; `INVALID_REQUEST` when it names nothing usable. */
export async function resolvePlanInput(unit: StorageUnit, intent: string): Promise<RunInput> {
  const names = [intent.trim(), ...intent.trim().split(/\s+/)].filter((name, index, all) =>
    name !== "" && all.indexOf(name) === index
  );
  for (const name of names) {
    const plan = await planNamed(unit, name);
    if (plan) return await inputOf(unit, plan);
  }
  throw invalid(
    `the intent names no plan: "${intent.slice(0, 200)}" is not the id of an intent Run with a committed ` +
      "plan, of a plan Artifact, nor the path of a plan file weft published (run `intent` first, then pass " +
      "its Run id)",
  );
}

/** The plan Artifact `name` designates, or undefined; one that is not a plan is refused, saying so. */
async function planNamed(unit: StorageUnit, name: string): Promise<ArtifactView | undefined> {
  const run = await unit.runs.find(name);
  if (run) {
    const plan = (await unit.artifacts.committedByRun(run.runId)).find((entry) =>
      entry.stageName === PLAN_STAGE
    );
    if (!plan) {
      throw invalid(`Run ${run.runId} (${run.flowName}, ${run.status}) has committed no plan yet`);
    }
    return await latest(unit, plan.artifactId);
  }
  const artifact = await unit.artifacts.findArtifact({ artifactId: name });
  if (artifact) return checked(artifact);
  const published = await unit.publications.find(name.replace(/^\.\//, ""));
  return published ? await latest(unit, published.artifactId) : undefined;
}

async function latest(unit: StorageUnit, artifactId: string): Promise<ArtifactView> {
  return checked((await unit.artifacts.findArtifact({ artifactId }))!);
}

/** A plan holds a list of tasks. */
function checked(artifact: ArtifactView): ArtifactView {
  const tasks = (artifact.data as { tasks?: unknown } | null)?.tasks;
  if (typeof artifact.data !== "object" || artifact.data === null || !Array.isArray(tasks)) {
    throw invalid(
      `Artifact ${artifact.artifactId} (${artifact.flowName}/${artifact.stageName}) is not a plan: it holds no tasks`,
    );
  }
  return artifact;
}

async function inputOf(unit: StorageUnit, plan: ArtifactView): Promise<RunInput> {
  const specification = (await unit.artifacts.committedByRun(plan.runId))
    .find((entry) => entry.stageName === SPECIFICATION_STAGE)?.data;
  return {
    kind: "plan",
    data: { plan: plan.data, ...(specification === undefined ? {} : { specification }) },
    source: { artifactId: plan.artifactId, revision: plan.revision },
  };
}

/** The latest revision of the Artifact a list follows, with its data, for one change of the Run. */
export async function latestRevision(
  unit: StorageUnit,
  artifactId: string,
): Promise<LatestInput | undefined> {
  const artifact = await unit.artifacts.findArtifact({ artifactId });
  return artifact ? { revision: artifact.revision, data: { plan: artifact.data } } : undefined;
}
