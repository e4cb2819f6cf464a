/**
 * What an IDE's agent loads from weft before the person types anything (`tools/list` plus instructions)
 * stays within its budget, is exactly what the sessions send, and points to the one resource that holds the
 * whole protocol.
 */
import assert from "node:assert/strict";
import { endpointAt, ENDPOINTS } from "../../src/mcp/endpoints.ts";
import { listingFor } from "../../src/mcp/listing.ts";
import { instructionsFor } from "../../src/mcp/instructions.ts";
import { toolsFor } from "../../src/mcp/tools/mod.ts";
import { PROTOCOL_DOC_URI } from "../../src/mcp/protocol_doc.ts";
import { contextCost } from "../support/context_cost.ts";
import { closeClient, mcpClient, serve, tempProject } from "../support/service.ts";

Deno.test("every endpoint's tools/list plus instructions stays within its byte budget", () => {
  for (const endpoint of ENDPOINTS) {
    const cost = contextCost(endpoint);
    const largest = Object.entries(cost.tools).sort((a, b) => b[1] - a[1]).slice(0, 5)
      .map(([name, size]) => `${name} ${size} B`).join(", ");
    assert.ok(
      cost.total <= cost.budget,
      `${endpoint.path} costs ${cost.total} B (tools/list ${cost.toolsList} B, instructions ` +
        `${cost.instructions} B), over its budget of ${cost.budget} B; largest tools: ${largest}`,
    );
  }
});

Deno.test("no description is repeated across the tools of an endpoint", () => {
  const endpoint = endpointAt("/mcp")!;
  const seen = new Map<string, string>();
  for (const tool of listingFor(endpoint, toolsFor(endpoint))) {
    for (
      const text of new Set([
        tool.description ?? "",
        ...descriptionsIn(tool.inputSchema),
        ...descriptionsIn(tool.outputSchema),
      ])
    ) {
      const other = seen.get(text);
      assert.ok(other === undefined, `"${text}" is said by both ${other} and ${tool.name}`);
      seen.set(text, tool.name);
    }
  }
});

Deno.test("sessions send exactly the measured listing and instructions, and serve the protocol resource", async () => {
  const dir = await tempProject();
  const served = await serve(dir);
  try {
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"]) {
      const endpoint = endpointAt(path)!;
      const client = await mcpClient(served, path);
      try {
        assert.equal(client.getInstructions(), instructionsFor(endpoint));
        assert.ok(
          client.getInstructions()!.includes(PROTOCOL_DOC_URI),
          `${path} instructions point to the doc`,
        );
        assert.deepEqual((await client.listTools()).tools, listingFor(endpoint, toolsFor(endpoint)));

        const { resources } = await client.listResources();
        assert.ok(resources.some((resource) => resource.uri === PROTOCOL_DOC_URI), `${path} lists the doc`);
        const [content] = (await client.readResource({ uri: PROTOCOL_DOC_URI })).contents;
        assert.equal(content.mimeType, "text/markdown");
        assert.match("text" in content ? content.text : "", /^# How to drive weft/);
        await assert.rejects(client.readResource({ uri: "weft://docs/nope" }), /-32602: Resource not found/);
      } finally {
        await closeClient(client);
      }
    }
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

function descriptionsIn(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === "description" && typeof value === "string" ? [value] : descriptionsIn(value)
  );
}
