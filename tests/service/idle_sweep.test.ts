/**
 * The idle-session sweep runs in the real service: a session nobody uses is closed by the service's own
 * timer, so leaked sessions cannot pile up to the cap. (The sweep's rules, on a clock the test controls, are
 * in session_table.test.ts.)
 */

import assert from "node:assert/strict";
import { startService } from "../../src/service/service.ts";
import { eventually } from "../support/deadline.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";
import { tempProject } from "../support/service.ts";

Deno.test("idle-session sweep: the started service closes a session left idle past its limit", async () => {
  const dir = await tempProject();
  // Idle after 1 ms: the first sweep of the service's own timer must close the session.
  const service = await startService({ projectDir: dir, port: 0, limits: { maxSessions: 4, idleMs: 1 } });
  try {
    const connection = JSON.parse(await Deno.readTextFile(`${dir}/.weft/connection.json`));
    const opened = await fetch(`${service.url}/mcp`, {
      method: "POST",
      headers: mcpHeaders(connection.externalToken),
      body: JSON.stringify(initializeRequest("idle")),
    });
    await opened.body?.cancel();
    const id = opened.headers.get("mcp-session-id");
    assert.ok(id, "initialize opened a session");
    const log = `${service.paths.logs}/${service.instanceId}.jsonl`;
    await eventually(`the log to record that session ${id} expired`, async () => {
      const text = await Deno.readTextFile(log);
      return text.split("\n").some((line) => line.includes('"session.expired"') && line.includes(id))
        ? true
        : undefined;
    });
    const ping = await fetch(`${service.url}/mcp`, {
      method: "POST",
      headers: mcpHeaders(connection.externalToken, { "mcp-session-id": id }),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    await ping.body?.cancel();
    assert.equal(ping.status, 404, "the expired session is gone");
  } finally {
    await service.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
