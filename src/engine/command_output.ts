/**
 * The output of a Run's running command as it arrives: what the service's command runner holds in memory and
 * the MCP resources serve, so any client can follow a check while it runs. Nothing of it is stored; the
 * result the command ends with is (`command_step.ts`).
 *
 * @module
 */
import type { StreamTail } from "./command_step.ts";

/** What a running command has printed so far: each stream's last bounded part, as its result will keep it. */
export interface RunningCommandOutput {
  commandId: string;
  /** The argument vector it runs. */
  run: string[];
  /** When it started (ISO 8601). */
  startedAt: string;
  stdout: StreamTail;
  stderr: StreamTail;
}

/** Where the output of running commands is read, and who is told when it grows. */
export interface CommandOutputSource {
  /** The output so far of the command Run `runId` runs now, or undefined when it runs none. */
  outputOf(runId: string): RunningCommandOutput | undefined;
  /**
   * Calls `listener` with the Run's id when its command starts, when its output grows (coalesced: at most a
   * few times a second), and once the Run has recorded how it ended; returns the way to stop.
   */
  onOutput(listener: (runId: string) => void): () => void;
}
