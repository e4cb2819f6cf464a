/**
 * The result tools: what stages committed, as Artifacts (current output per stage) and Records (history).
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { ArtifactViewSchema, RecordViewSchema } from "../../engine/views.ts";
import { invalid } from "../../errors.ts";
import { defineTool } from "../tool.ts";
import { IdSchema, Name, Paging } from "./shared_inputs.ts";

/** `get_record`: one Record, or null. */
export const getRecordTool = defineTool({
  name: "get_record",
  title: "Get a Record",
  description: "Return the Record `recordId` (what a stage committed, by which Run, from " +
    "which answers), or null.",
  input: z.strictObject({ recordId: IdSchema }),
  output: z.object({ record: RecordViewSchema.nullable() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: async ({ recordId }, { service }) => ({ record: await service.engine.getRecord(recordId) }),
});

/** `get_artifact`: one Artifact with its data, by id or by (flowName, stageName). */
export const getArtifactTool = defineTool({
  name: "get_artifact",
  title: "Get an Artifact",
  description: "Return an Artifact with its data, by `artifactId` or by `flowName` and " +
    "`stageName` (that stage's current output); `revision` picks an earlier one. null when there is none.",
  input: z.strictObject({
    artifactId: IdSchema.optional(),
    flowName: Name.optional(),
    stageName: Name.optional(),
    revision: z.number().int().min(1).optional(),
  }),
  output: z.object({ artifact: ArtifactViewSchema.nullable() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: async ({ artifactId, flowName, stageName, revision }, { service }) => {
    const byId = artifactId !== undefined;
    const byStage = flowName !== undefined || stageName !== undefined;
    if (byId === byStage) throw invalid("Pass either artifactId, or both flowName and stageName.");
    if (byStage && (flowName === undefined || stageName === undefined)) {
      throw invalid("flowName and stageName go together.");
    }
    const query = byId ? { artifactId: artifactId! } : { flowName: flowName!, stageName: stageName! };
    return { artifact: await service.engine.getArtifact(query, revision) };
  },
});

/** `list_artifacts`: Artifact metadata (no data), paged by an opaque cursor bound to the filters. */
export const listArtifactsTool = defineTool({
  name: "list_artifacts",
  title: "List Artifacts",
  description: "List Artifacts without their data, optionally by flowName and stageName, " +
    "paged like list_runs.",
  input: z.strictObject({
    flowName: Name.optional(),
    stageName: Name.optional(),
    ...Paging,
  }),
  output: z.object({ artifacts: z.array(ArtifactViewSchema), nextCursor: z.string().optional() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: (input, { service }) => service.engine.listArtifacts(input),
});
