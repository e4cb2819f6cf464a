/**
 * Builds the MCP server of one session: the tools of its endpoint, their schemas as JSON Schema, strict input
 * validation, and the mapping of every outcome to a result (docs/reference.md, "Results and errors").
 *
 * @module
 */

import type { z } from "../lib/zod.ts";
import { isInputRequiredResult, Server } from "./sdk.ts";
import type { Endpoint } from "./endpoints.ts";
import type { ServiceContext } from "./context.ts";
import type { ToolDefinition } from "./tool.ts";
import { listingFor } from "./listing.ts";
import { errorResult, okResult } from "./call_result.ts";
import { errorKind, invalid, toWeftError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { instructionsFor } from "./instructions.ts";
import { serveResources } from "./resources/handlers.ts";
import { type StandaloneListener, Subscriptions } from "./resources/subscriptions.ts";
import { answerValidator } from "./answer_validator.ts";

/** One session's server, and the listener the HTTP layer tells about the session's GET stream. */
export interface SessionServer {
  server: Server;
  standalone: StandaloneListener;
}

/**
 * Creates the server for one new 2025-11-25 session on `endpoint`, offering `tools`; or, with `era` modern,
 * for one 2026-07-28 request (the SDK makes one per request: such a server never outlives its answer).
 */
export function createSessionServer(
  endpoint: Endpoint,
  service: ServiceContext,
  tools: readonly ToolDefinition[],
  era: "legacy" | "modern" = "legacy",
): SessionServer {
  const server = new Server(
    { name: "weft", title: "weft", version: VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true } },
      instructions: instructionsFor(endpoint),
      jsonSchemaValidator: answerValidator(),
    },
  );
  const subscriptions = new Subscriptions(
    service.engine,
    (notification) => server.notification(notification),
    service.commandOutput,
  );
  // The transport's close (DELETE, idle expiry, shutdown) reaches the server; the subscriptions end with it.
  server.onclose = () => subscriptions.close();
  serveResources(server, service.engine, service.commandOutput, subscriptions);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  // Built at the endpoint's first tools/list (then cached), so an initialize never waits for it.
  server.setRequestHandler("tools/list", () => ({ tools: listingFor(endpoint, tools) }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const name = request.params.name;
    const tool = byName.get(name);
    const started = performance.now();
    let outcome = "ok";
    let runId: string | undefined;
    // While the call runs, its stream carries resource notifications if the client has no GET stream open.
    const release = subscriptions.whileCalling((notification) => ctx.mcpReq.notify(notification));
    try {
      if (!tool) throw invalid(`Unknown tool "${name}" on ${endpoint.path}.`);
      const parsed = tool.input.safeParse(request.params.arguments ?? {});
      if (!parsed.success) throw invalid(`Invalid arguments for ${name}: ${describeIssues(parsed.error)}`);
      runId = (parsed.data as { runId?: string }).runId;
      const value = await tool.run(parsed.data, { endpoint, service, era, server, ctx });
      // The form `interact` asks the client to show (2026-07-28); the call is made again with the reply.
      if (isInputRequiredResult(value)) {
        outcome = "input_required";
        return value;
      }
      const result = tool.output.parse(value) as Record<string, unknown>;
      runId ??= (result.run as { runId?: string } | undefined)?.runId;
      return okResult(result);
    } catch (error) {
      const classified = toWeftError(error);
      outcome = classified.code;
      if (classified.code === "INTERNAL") {
        // The kind only: the message of a file or network error carries absolute paths and raw OS text.
        service.logger.log("tool.internal_error", { tool: name, ...errorKind(classified.cause ?? error) });
      }
      return errorResult(classified);
    } finally {
      release();
      service.logger.log("tool.call", {
        tool: name,
        path: endpoint.path,
        // Which revision the client speaks (docs/ide.md tells a person how to read it).
        protocol: server.getNegotiatedProtocolVersion(),
        // So that `weft logs <runId>` can follow one Run; ids are not secrets, intents and answers stay out.
        runId,
        outcome,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
    }
  });
  return { server, standalone: subscriptions };
}

/** Turns zod issues into one line an agent can act on: `path: problem; path: problem`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`)
    .join("; ");
}
