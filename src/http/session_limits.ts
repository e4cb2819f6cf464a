/**
 * How many MCP sessions the service keeps, and for how long. A module of its own, so that `weft serve` knows
 * its defaults without loading the HTTP layer (and the MCP SDK) before it has to.
 *
 * @module
 */

/** Limits of the session table. */
export interface SessionLimits {
  /**
   * Open sessions at most per token class (the IDE's endpoints, and the CLI's and Studio's), so that one class
   * can never use up the other's. Past it, an external initialization gets 503; an internal one closes the
   * internal session unused the longest (one not streaming if any), so `weft status` and `weft stop` always
   * get in.
   */
  maxSessions: number;
  /** A session with no request for this long, and none still streaming, is closed by the next sweep. */
  idleMs: number;
  /**
   * Interval of the keep-alive tick on open event streams (see `MeteredBody.keepAlive`): a stream
   * whose client is gone ends within two ticks, so its session can go idle and expire.
   */
  keepAliveMs?: number;
}

/** Defaults sized for a person's IDEs plus the CLI, with room for many agents. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxSessions: 256,
  idleMs: 60 * 60 * 1000,
  keepAliveMs: 25_000,
};
