/**
 * What a client asks of the service for Studio, outside MCP: a single-use ticket that opens Studio in a
 * browser (with the 0600 redirect file that hands it over, when asked for), and the end of every Studio
 * session. Both present the internal token, and only to the instance the connection was checked for.
 *
 * @module
 */

import { STUDIO_SIGN_OUT_PATH, STUDIO_TICKET_PATH } from "../studio/paths.ts";
import type { ConnectionInfo } from "../weft_dir/connection.ts";
import { ClientFailure } from "./failure.ts";
import { ServiceOfflineError } from "./offline.ts";

/** What the service answers to a ticket request. */
export interface MintedTicket {
  url: string;
  expiresAt: string;
  /** The `file://` address of the page that opens `url`, when one was asked for. */
  redirectFile?: string;
}

/**
 * Asks the service for a ticket, presenting the internal token to the instance `connection` was checked for;
 * with `redirectFile`, also for the file that opens it.
 */
export async function mintTicket(connection: ConnectionInfo, redirectFile: boolean): Promise<MintedTicket> {
  const path = redirectFile ? `${STUDIO_TICKET_PATH}?redirectFile=true` : STUDIO_TICKET_PATH;
  const minted = await askService(connection, path, "the service refused a Studio ticket") as Partial<
    MintedTicket
  >;
  if (
    typeof minted.url !== "string" || typeof minted.expiresAt !== "string" ||
    (redirectFile && typeof minted.redirectFile !== "string")
  ) {
    throw new ClientFailure(
      "FAILURE",
      "the service answered a ticket request without an address",
      "`weft doctor` checks the project",
    );
  }
  return { url: minted.url, expiresAt: minted.expiresAt, redirectFile: minted.redirectFile };
}

/** Ends every Studio session of the project, in every browser. */
export async function endStudioSessions(connection: ConnectionInfo): Promise<void> {
  await askService(connection, STUDIO_SIGN_OUT_PATH, "the service refused to end the Studio sessions");
}

/** POSTs to one of Studio's paths with the internal token; resolves with the JSON answer. */
async function askService(connection: ConnectionInfo, path: string, refusal: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(path, connection.url), {
      method: "POST",
      headers: { authorization: `Bearer ${connection.internalToken}` },
    });
  } catch (error) {
    throw new ServiceOfflineError(
      `the service (pid ${connection.pid}) holds the lock but does not answer: ${(error as Error).message}`,
      true,
    );
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new ClientFailure(
      "FAILURE",
      `${refusal} (HTTP ${response.status})`,
      "`weft doctor` checks the project; `weft logs` shows what the service saw",
    );
  }
  return await response.json();
}
