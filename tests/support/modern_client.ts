// deno-lint-ignore-file no-import-prefix -- the v2 client is test-only (the program serves, it does not call): named here, not in
// deno.json, so that no command installs it.
/**
 * The MCP client of the 2026-07-28 revision: the official SDK's v2 client pinned to it (sessionless
 * requests that carry their version and capabilities, `server/discover`, `input_required`,
 * `subscriptions/listen`), connected to a served project as an IDE that speaks it would be.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { ElicitRequestFormParams, ElicitResult } from "npm:@modelcontextprotocol/client@2.4.0";
import { type ServedProject, tokenFor } from "./service.ts";

export { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport };
export type { ElicitRequestFormParams, ElicitResult };

/** The revision the client is pinned to. */
export const MODERN_REVISION = "2026-07-28";

/** The protocol revisions weft serves. */
export type Revision = "2025-11-25" | typeof MODERN_REVISION;

/** Shows a form to the test's person and returns their reply. */
export type FormPerson = (form: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>;

/**
 * A v2 client on `path` of `served`, pinned to 2026-07-28. With `person`, it declares form elicitation and
 * answers `input_required` forms through it (the SDK retries the call with the reply and the state).
 */
export function modernClient(
  served: ServedProject,
  path: string,
  options: { person?: FormPerson; token?: string } = {},
): Promise<Client> {
  return modernClientAt(new URL(path, served.url), options.token ?? tokenFor(served, path), options.person);
}

/** A v2 client pinned to 2026-07-28 on `url`, with `token` as its bearer token when given. */
export async function modernClientAt(url: URL, token?: string, person?: FormPerson): Promise<Client> {
  const client = new Client(
    { name: "weft-test-modern", version: "0.0.0" },
    {
      versionNegotiation: { mode: { pin: MODERN_REVISION } },
      capabilities: person ? { elicitation: { form: {} } } : {},
    },
  );
  if (person) {
    client.setRequestHandler(
      "elicitation/create",
      (request) => person(request.params as ElicitRequestFormParams),
    );
  }
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}
