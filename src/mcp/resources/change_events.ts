/**
 * Engine changes as the change events of MCP 2026-07-28's `subscriptions/listen` streams: the same resource
 * URIs a 2025-11-25 session's `resources/subscribe` is told of (`subscriptions.ts`), published on the bus the
 * SDK's listen streams read. The SDK keeps, per stream, only the URIs its client asked for; nothing is
 * worked out while no stream is open.
 *
 * @module
 */

import type { InMemoryServerEventBus } from "../sdk.ts";
import type { ChangeSource, OutputSource } from "./subscriptions.ts";
import { commandOutputUri, formatResourceUri, RUNS_URI, runTasksUri } from "./uris.ts";
import { tasksFingerprint } from "../../engine/run_tasks.ts";

/** How many Runs' tasks fingerprints are remembered, so a step that leaves a Run's tasks is silent. */
const REMEMBERED_TASKS = 256;

/** Publishes every engine change and command output growth on `bus`; returns the function that stops it. */
export function publishChanges(
  changes: ChangeSource,
  output: OutputSource,
  bus: InMemoryServerEventBus,
): () => void {
  const tasksSeen = new Map<string, string>();
  const updated = (uri: string) => bus.publish({ kind: "resource_updated", uri });
  const stopChanges = changes.onChange((change) => {
    if (bus.listenerCount === 0) return;
    if (change.kind === "run") {
      const { runId } = change.run;
      updated(formatResourceUri({ kind: "run", runId, timeline: false }));
      updated(formatResourceUri({ kind: "run", runId, timeline: true }));
      updated(RUNS_URI);
      const fingerprint = tasksFingerprint(change.run);
      if (tasksSeen.get(runId) !== fingerprint) {
        tasksSeen.delete(runId);
        tasksSeen.set(runId, fingerprint);
        if (tasksSeen.size > REMEMBERED_TASKS) tasksSeen.delete(tasksSeen.keys().next().value!);
        updated(runTasksUri(runId));
      }
    } else {
      updated(formatResourceUri(change));
    }
    if (change.created) bus.publish({ kind: "resources_list_changed" });
  });
  const stopOutput = output.onOutput((runId) => {
    if (bus.listenerCount > 0) updated(commandOutputUri(runId));
  });
  return () => {
    stopChanges();
    stopOutput();
  };
}
