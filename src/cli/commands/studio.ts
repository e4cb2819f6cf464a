/**
 * `weft studio`: opens Studio, the project's page in a web browser. The command is a client of the service
 * like every other: it asks the service (with the internal token, sent only to the checked instance) for a
 * single-use ticket and opens the address that holds it. The ticket is printed only when it is not opened,
 * and never logged.
 *
 * @module
 */

import { verifiedConnection } from "../../client/verified_connection.ts";
import { ServiceOfflineError } from "../../client/offline.ts";
import { STUDIO_TICKET_PATH } from "../../http/studio_pages.ts";
import type { ConnectionInfo } from "../../weft_dir/connection.ts";
import { UsageError } from "../args.ts";
import { openInBrowser } from "../browser.ts";
import { defineCommand } from "../command.ts";
import { EXIT } from "../exit_codes.ts";
import { CommandFailure } from "../failure.ts";
import { printJson } from "../format.ts";
import { reachService } from "./client.ts";

/** What the service answers to a ticket request. */
interface MintedTicket {
  url: string;
  expiresAt: string;
}

/** `weft studio` */
export const studioCommand = defineCommand({
  name: "studio",
  summary: "open Studio, the project's Runs, questions and Artifacts in your browser",
  synopsis: "studio [--no-open]",
  description: `Opens Studio in your web browser: the project's Runs, the questions waiting for you, and its
Artifacts. Starts the service in the background when none runs.
The address holds a single-use ticket valid for about a minute; the browser exchanges it for a session
cookie that opens Studio only. The browser is $BROWSER when set, else the system's opener (xdg-open,
open, start); without one, or with --no-open, the address is printed for you to open instead.`,
  options: {
    "no-open": { type: "boolean", help: "print the address instead of opening a browser" },
  },
  json: 'print { "url": "http://127.0.0.1:PORT/studio/?ticket=…", "expiresAt": ISO time } and open nothing',
  notes: "The address works once, within about a minute: run `weft studio` again for a new one.",
  async run({ positionals, projectDir, json, options }) {
    if (positionals.length) {
      throw new UsageError("takes no arguments (a project is named with --project DIR)");
    }
    const say = (line: string) => console.error(line);
    const connection = await reachService(projectDir, () => verifiedConnection(projectDir), {
      start: true,
      progress: say,
    });
    const { url, expiresAt } = await mintTicket(connection);
    if (json) {
      printJson({ url, expiresAt });
      return EXIT.OK;
    }
    const page = new URL(url);
    const shown = `${page.origin}${page.pathname}`;
    if (!options["no-open"]) {
      const outcome = await openInBrowser(url);
      if (outcome.opened) {
        console.log(`Studio opened in your browser: ${shown}`);
        return EXIT.OK;
      }
      say(`could not open a browser (${outcome.reason}); set BROWSER, or open the address below`);
    }
    console.log(url);
    say("open it within a minute; it works once (run `weft studio` again for a new one)");
    return EXIT.OK;
  },
});

/** Asks the service for a ticket, presenting the internal token to the instance `connection` was checked for. */
async function mintTicket(connection: ConnectionInfo): Promise<MintedTicket> {
  let response: Response;
  try {
    response = await fetch(new URL(STUDIO_TICKET_PATH, connection.url), {
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
    throw new CommandFailure(
      "FAILURE",
      `the service refused a Studio ticket (HTTP ${response.status})`,
      "`weft doctor` checks the project; `weft logs` shows what the service saw",
    );
  }
  const minted = await response.json() as Partial<MintedTicket>;
  if (typeof minted.url !== "string" || typeof minted.expiresAt !== "string") {
    throw new CommandFailure(
      "FAILURE",
      "the service answered a ticket request without an address",
      "`weft doctor` checks the project",
    );
  }
  return { url: minted.url, expiresAt: minted.expiresAt };
}
