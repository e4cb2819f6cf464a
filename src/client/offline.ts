/**
 * Why no service answers for a project: thrown by the client helper, reported by the CLI. It has its own
 * module so that reporting it does not load the MCP client (which `weft serve` never needs).
 *
 * @module
 */

import { WeftError } from "../errors.ts";

/**
 * Raised when no live service answers for the project; `reason` says what was found instead. A crashed
 * service's leftovers, or state weft did not make, need recovery first (`NEEDS_RECOVERY`).
 */
export class ServiceOfflineError extends WeftError {
  constructor(readonly reason: string, readonly needsRecovery = false) {
    super(needsRecovery ? "NEEDS_RECOVERY" : "SERVICE_OFFLINE", reason);
    this.name = "ServiceOfflineError";
  }
}

/** No service can be used because `.weft/` is not weft's own: nothing in it may be read or trusted. */
export class UntrustedStateOffline extends ServiceOfflineError {}
