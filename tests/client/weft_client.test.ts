/**
 * The client every command uses keeps its session across a restart of the service, as the bridge does: it
 * joins the new instance and subscribes again, what it watches wakes it (changes may have gone unannounced),
 * and a service that stopped for good is offline, never started again behind the person's back.
 */
import assert from "node:assert/strict";
import { LATEST_PROTOCOL_VERSION } from "../support/sdk_test_client.ts";
import { ServiceOfflineError } from "../../src/client/offline.ts";
import type { RunView } from "../../src/client/views.ts";
import { openClient, PROTOCOL_VERSION } from "../../src/client/weft_client.ts";
import { call, closeClient, mcpClient, serve, tempProject } from "../support/service.ts";
import { WAIT_MS, within } from "../support/deadline.ts";
import { reviewManifest, workflowFiles } from "../support/workflows.ts";

Deno.test("the client asks for the protocol version the service's SDK speaks newest", () => {
  assert.equal(PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION);
});

Deno.test("a command's session outlives a restart: it joins the new instance, its watch wakes and hears changes again; a stopped service is offline", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  let served = await serve(dir);
  const client = await openClient(dir);
  try {
    const { run } = await client.call<{ run: RunView }>("flow", { flowName: "review", intent: "rejoin" });
    const uri = `weft://runs/${run.runId}`;
    const watch = await client.watch([uri]);
    assert.deepEqual(await watch.next(0), new Set(), "nothing changed yet");

    await served.stop();
    // Read as soon as the watch wakes, as `weft attach` does: it wakes once the new instance is joined.
    const reread = watch.next(WAIT_MS).then(async (changed) => ({
      changed,
      ...await client.call<{ run: RunView }>("get_run", { runId: run.runId }),
    }));
    served = await serve(dir);
    const { changed, run: again } = await within("the watch to wake after the restart", reread);
    assert.deepEqual(changed, new Set([uri]));
    assert.equal(again.status, "waiting", "the call reached the new instance");

    // Subscribed again: a change another client makes is announced.
    const other = await mcpClient(served, "/internal/mcp");
    try {
      await call(other, "cancel_run", { runId: run.runId });
    } finally {
      await closeClient(other);
    }
    assert.deepEqual(await within("the watch to hear the cancel", watch.next(WAIT_MS)), new Set([uri]));

    // Nothing watched: a stopped service is found at the next call, without waiting for a restart.
    await watch.close();
    await served.stop();
    await assert.rejects(
      within("the call to find the service offline", client.call("get_run", { runId: run.runId })),
      ServiceOfflineError,
    );
    assert.equal(await Deno.stat(`${dir}/.weft/service.lock`).then(() => true, () => false), false);
  } finally {
    await client.close();
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
