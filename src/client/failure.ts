/**
 * A failure of a client's own doing rather than of a tool call: the service did not start, or refused what
 * the client asked of it outside MCP (a Studio ticket). It carries the code and the fix to show, as `weft
 * serve` classified them or as the client knows them.
 *
 * @module
 */

/** `code` is a code of the catalog (`src/errors.ts`, its CLI codes included), else `FAILURE`. */
export class ClientFailure extends Error {
  constructor(readonly code: string, message: string, readonly fix: string) {
    super(message);
    this.name = "ClientFailure";
  }
}
