/** Exit codes of the `weft` command, distinct per kind of failure so that scripts can branch on them. */
export const EXIT = {
  OK: 0,
  /** Something failed; the message says what. */
  FAILURE: 1,
  /** The command line was wrong. */
  USAGE: 2,
  /** No service runs for the project. */
  OFFLINE: 3,
  /** A crashed instance left state behind, or a process holds the lock without answering. */
  NEEDS_RECOVERY: 4,
  /** The Run the command started or followed ended as failed. */
  RUN_FAILED: 5,
  /** The Run the command started or followed ended as cancelled. */
  RUN_CANCELLED: 6,
} as const;
