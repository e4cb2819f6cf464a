/**
 * A failure of a client's own doing rather than of a tool call: the service did not start, or refused what
 * the client asked of it outside MCP (a Studio ticket). It carries the code and the fix to show, as `weft
 * serve` classified them or as the client knows them.
 *
 * @module
 */
import { isWeftErrorCode, WeftError } from "../errors.ts";

/** A code of the catalog (`src/errors.ts`, its CLI codes included) with its fix; any other code is `FAILURE`. */
export class ClientFailure extends WeftError {
  constructor(code: string, message: string, readonly fix: string) {
    super(isWeftErrorCode(code) ? code : "FAILURE", message);
    this.name = "ClientFailure";
  }
}
