/**
 * Whether this project's service runs, as any client sees it: through its lock, its metadata and a real
 * `status` call, never by trusting a file alone.
 *
 * @module
 */

import { ServiceOfflineError } from "./offline.ts";
import { openClient } from "./weft_client.ts";

/** What a client observed of the service (`weft status --json` prints it as it is). */
export interface ServiceReport {
  state: "running" | "offline" | "needs_recovery";
  reason: string;
  url?: string;
  pid?: number;
  instanceId?: string;
  service?: Record<string, unknown>;
}

/** Observes the project's service through its lock, its metadata and a real `status` call. */
export async function observeService(projectDir: string): Promise<ServiceReport> {
  let client;
  try {
    client = await openClient(projectDir);
  } catch (error) {
    if (!(error instanceof ServiceOfflineError)) throw error;
    return { state: error.needsRecovery ? "needs_recovery" : "offline", reason: error.reason };
  }
  try {
    const { service } = await client.call<{ service: Record<string, unknown> }>("status");
    return {
      state: "running",
      reason: "the service answers",
      url: client.connection.url,
      pid: service.pid as number,
      instanceId: service.instanceId as string,
      service,
    };
  } finally {
    await client.close();
  }
}
