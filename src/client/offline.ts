/**
 * Why no service answers for a project: thrown by the client helper, reported by the CLI. It has its own
 * module so that reporting it does not load the MCP client (which `weft serve` never needs).
 *
 * @module
 */

/** Raised when no live service answers for the project; `reason` says what was found instead. */
export class ServiceOfflineError extends Error {
  constructor(readonly reason: string, readonly needsRecovery = false) {
    super(reason);
    this.name = "ServiceOfflineError";
  }
}

/** No service can be used because `.weft/` is not weft's own: nothing in it may be read or trusted. */
export class UntrustedStateOffline extends ServiceOfflineError {}
