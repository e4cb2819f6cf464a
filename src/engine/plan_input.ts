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

/** How long a Run's title may be, in characters. */
const TITLE_CHARS = 120;

async function inputOf(unit: StorageUnit, plan: ArtifactView): Promise<RunInput> {
  const specification = (await unit.artifacts.committedByRun(plan.runId))
    .find((entry) => entry.stageName === SPECIFICATION_STAGE)?.data;
  const intent = (await unit.runs.find(plan.runId))?.intent;
  return {
    kind: "plan",
    data: { plan: plan.data, ...(specification === undefined ? {} : { specification }) },
    source: { artifactId: plan.artifactId, revision: plan.revision },
    ...(intent ? { title: titleOf(intent) } : {}),
  };
}

/** The first line of `intent`, cut to a title's length. */
function titleOf(intent: string): string {
  const line = intent.trim().split("\n")[0].replace(/\s+/g, " ");
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/** A requirement of a specification, with the criteria that accept it. */
export interface ServedRequirement {
  id: string;
  statement: string;
  acceptance: string[];
}

/**
 * The requirements of the specification in a plan input (`{ plan, specification }`) that `task` says it
 * serves (its `requirements`, by id), with their acceptance criteria; none when either is missing.
 */
export function requirementsServed(input: unknown, task: unknown): ServedRequirement[] {
  const ids = (task as { requirements?: unknown } | null)?.requirements;
  const all = (input as { specification?: { requirements?: unknown } } | null)?.specification?.requirements;
  if (!Array.isArray(ids) || !Array.isArray(all)) return [];
  return all.flatMap((entry) => {
    const { id, statement, acceptance } = (entry ?? {}) as Record<string, unknown>;
    if (typeof id !== "string" || !ids.includes(id)) return [];
    return [{
      id,
      statement: typeof statement === "string" ? statement : "",
      acceptance: Array.isArray(acceptance) ? acceptance.filter((text) => typeof text === "string") : [],
    }];
  });
}

/** The latest revision of the Artifact a list follows, with its data, for one change of the Run. */
export async function latestRevision(
  unit: StorageUnit,
  artifactId: string,
): Promise<LatestInput | undefined> {
  const artifact = await unit.artifacts.findArtifact({ artifactId });
  return artifact ? { revision: artifact.revision, data: { plan: artifact.data } } : undefined;
}
