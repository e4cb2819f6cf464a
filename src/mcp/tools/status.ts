/**
 * The `status` tool: what this service is, how long it has run, which source this endpoint is, and counts.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { AgentExecutorSchema, PublicationDriftViewSchema, SourceSchema } from "../../engine/views.ts";
import { defineTool } from "../tool.ts";

const ServiceView = z.object({
  name: z.literal("weft"),
  version: z.string(),
  instanceId: z.string(),
  pid: z.number().int(),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
  endpoint: z.object({
    path: z.string(),
    source: SourceSchema,
    agentExecutor: AgentExecutorSchema,
  }),
  storage: z.object({
    kind: z.string().describe("the kind of store, `sqlite` today"),
    journalMode: z.string(),
  }),
  counts: z.object({
    runs: z.record(z.string(), z.number().int()),
    artifacts: z.number().int(),
    records: z.number().int(),
    workflows: z.object({ available: z.number().int(), unavailable: z.number().int() }),
    sessions: z.object({ open: z.number().int(), max: z.number().int() }),
    /** Listeners of the engine's change feed: one per session that subscribed or listed resources. */
    changeListeners: z.number().int(),
  }),
  publications: z.object({
    files: z.number().int().describe("how many project files weft published"),
    changed: z.array(PublicationDriftViewSchema).describe("those edited or removed since weft wrote them"),
  }),
  model: z.object({
    ready: z.boolean(),
    reason: z.string().optional(),
    // Each role also says provider, model, origin, apiKeyEnv, keySet and reason (docs/models.md).
    roles: z.array(z.looseObject({ role: z.string(), ready: z.boolean() })),
  }),
});

/** Reports the service; works on every endpoint. */
export const statusTool = defineTool({
  name: "status",
  title: "Service status",
  description: "Report this service: version, instance, uptime, this endpoint's source and " +
    "agent executor, storage, counts and model readiness per role.",
  input: z.strictObject({}),
  output: z.object({ service: ServiceView }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, { endpoint, service }) {
    const stats = await service.engine.stats();
    const roles = service.models.list();
    const fallback = roles.find((role) => role.role === "default")!;
    const { instance } = service;
    return {
      service: {
        name: "weft" as const,
        version: instance.version,
        instanceId: instance.instanceId,
        pid: instance.pid,
        startedAt: instance.startedAt.toISOString(),
        uptimeSeconds: Math.round((Date.now() - instance.startedAt.getTime()) / 1000),
        endpoint: {
          path: endpoint.path,
          source: endpoint.source,
          agentExecutor: endpoint.agentExecutor,
        },
        storage: stats.storage,
        counts: {
          runs: stats.runs,
          artifacts: stats.artifacts,
          records: stats.records,
          workflows: stats.workflows,
          sessions: service.sessions(),
          changeListeners: service.engine.changeListeners,
        },
        publications: stats.publications,
        model: {
          ready: fallback.ready,
          ...(fallback.reason ? { reason: fallback.reason } : {}),
          roles: roles as (typeof roles[number] & Record<string, unknown>)[],
        },
      },
    };
  },
});
