/**
 * The agent protocol as an MCP resource: `agent_protocol.md` beside this file, embedded in the program, holds every rule
 * a client or agent follows. The server instructions point to it, so that the tool list an agent loads into
 * its context can stay short without losing a rule.
 *
 * @module
 */

import text from "./agent_protocol.md" with { type: "text" };
import { PROTOCOL_DOC_URI, resourceNotFound } from "./resources/uris.ts";

export { PROTOCOL_DOC_URI };

/** The doc's entry in `resources/list`. */
export const PROTOCOL_DOC = {
  uri: PROTOCOL_DOC_URI,
  name: "agent-protocol",
  title: "How to drive weft",
  description: "Every rule for following Runs, answering for the person and working on agent calls.",
  mimeType: "text/markdown",
};

/** The `resources/read` answer for `uri`; any other uri is MCP's "resource not found" error. */
export function readProtocolDoc(
  uri: string,
): { contents: { uri: string; mimeType: string; text: string }[] } {
  if (uri !== PROTOCOL_DOC_URI) throw resourceNotFound(`no resource ${uri}`);
  return { contents: [{ uri, mimeType: PROTOCOL_DOC.mimeType, text }] };
}
