/**
 * `weft mcp` forwards resource subscriptions and their notifications, and keeps them across a restart of the
 * service: it joins the new instance on its own, subscribes again and tells the IDE to re-read.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "../support/sdk_test_client.ts";
import { bridgeTransport } from "../support/bridge.ts";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve, tempProject } from "../support/service.ts";
import { Inbox } from "../support/notifications.ts";
import { within } from "../support/deadline.ts";
import { REVIEW_ANSWER, reviewManifest, workflowFiles } from "../support/workflows.ts";

Deno.test("notifications reach the IDE through weft mcp, also after the service restarted", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  let served = await serve(dir);
  const ide = new Client({ name: "ide-over-stdio", version: "0.0.0" }, { capabilities: {} });
  const inbox = new Inbox(ide);
  const transport = bridgeTransport(dir);
  try {
    await ide.connect(transport);
    let cli = await mcpClient(served, "/internal/mcp");
    const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: "bridged" });
    const uri = `weft://runs/${run.runId}`;
    await ide.subscribeResource({ uri });
    await call(cli, "answer_ask", {
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: REVIEW_ANSWER,
    });
    const first = await inbox.until(`updated ${uri}`);
    await closeClient(cli);

    // The service restarts while the IDE only waits: no message of the IDE tells the bridge.
    await served.stop();
    served = await serve(dir);
    const reread = await inbox.until(`updated ${uri}`, first + 1);
    cli = await mcpClient(served, "/internal/mcp");
    await call(cli, "cancel_run", { runId: run.runId });
    await inbox.until(`updated ${uri}`, reread + 1);
    await closeClient(cli);
    const { contents } = await ide.readResource({ uri });
    assert.equal(JSON.parse((contents[0] as { text: string }).text).run.status, "cancelled");
  } finally {
    await ide.close();
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a rejoin the restarted service refuses neither ends nor wedges weft mcp: the IDE's next message joins again", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  let served = await serve(dir);
  const ide = new Client({ name: "ide-over-stdio", version: "0.0.0" }, { capabilities: {} });
  const inbox = new Inbox(ide);
  const transport = bridgeTransport(dir);
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  let other: Client | undefined;
  try {
    await ide.connect(transport);
    const cli = await mcpClient(served, "/internal/mcp");
    const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: "refused" });
    await closeClient(cli);
    const uri = `weft://runs/${run.runId}`;
    await ide.subscribeResource({ uri });

    // The bridge sleeps through the restart; when it wakes, another IDE holds the only session the new
    // service allows, so its rejoin is refused (503).
    const bridge = transport.pid!;
    Deno.kill(bridge, "SIGSTOP");
    try {
      await served.stop();
      served = await serve(dir, { extraArgs: ["--max-sessions", "1"] });
      other = await mcpClient(served, "/mcp");
    } finally {
      Deno.kill(bridge, "SIGCONT");
    }
    await within(
      "the bridge's refused rejoin",
      (async () => {
        while (!stderr.includes("HTTP 503")) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
    );
    await closeClient(other);
    other = undefined;

    // The bridge still runs, and the IDE's next request joins the service again and is answered.
    const reread = inbox.received.length;
    const { contents } = await ide.readResource({ uri });
    assert.equal(JSON.parse((contents[0] as { text: string }).text).run.runId, run.runId);
    await inbox.until(`updated ${uri}`, reread);
    assert.doesNotMatch(stderr, /Uncaught/);
  } finally {
    if (other) await closeClient(other);
    await ide.close();
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("weft mcp closed by its IDE says nothing of its stream: ending the session ends it, and that is no error", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const ide = new Client({ name: "ide-over-stdio", version: "0.0.0" }, { capabilities: {} });
  const inbox = new Inbox(ide);
  const transport = bridgeTransport(dir);
  let stderr = "";
  const ended = new Promise<void>((resolve) => {
    transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
    transport.stderr?.on("end", () => resolve());
  });
  try {
    await ide.connect(transport);
    const cli = await mcpClient(served, "/internal/mcp");
    const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: "closed" });
    const uri = `weft://runs/${run.runId}`;
    await ide.subscribeResource({ uri });
    await call(cli, "cancel_run", { runId: run.runId });
    await closeClient(cli);
    // No call of the IDE's is in flight: the update came over the session's own stream, which is open.
    await inbox.until(`updated ${uri}`);
    await ide.close();
    await within("the stderr of weft mcp to end", ended);
    assert.doesNotMatch(stderr, /stream/, stderr);
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
