/**
 * `weft studio`: opens Studio, the project's page in a web browser, or ends every Studio session. The command
 * is a client of the service like every other: it asks the service (with the internal token, sent only to
 * the checked instance) for a single-use ticket, and hands the browser opener only the address of the 0600
 * redirect file the service wrote for it, since any user can read a process's arguments. The ticket's address
 * is printed only when it is not opened, and never logged.
 *
 * @module
 */

import { verifiedConnection } from "../../client/verified_connection.ts";
import { ServiceOfflineError } from "../../client/offline.ts";
import { STUDIO_SIGN_OUT_PATH, STUDIO_TICKET_PATH } from "../../http/studio_pages.ts";
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
  /** The `file://` address of the page that opens `url`, when one was asked for. */
  redirectFile?: string;
}

/** `weft studio` */
export const studioCommand = defineCommand({
  name: "studio",
  summary: "open Studio, the project's Runs, questions and Artifacts in your browser",
  synopsis: "studio [--no-open | --sign-out-all]",
  description: `Opens Studio in your web browser: the project's Runs, the questions waiting for you, and its
Artifacts. Starts the service in the background when none runs.
The browser is $BROWSER when set, else the system's opener (xdg-open, open, start). It is given
the address of a small page in .weft/ (readable by you only) that goes on to Studio with a
single-use ticket valid for about a minute; the page is removed once used. The browser exchanges
the ticket for a session that opens Studio only, in that tab: it ends 12 hours after its last use,
24 hours after it was opened at the latest, or when you end every session with --sign-out-all
(or Studio's "Sign out everywhere"). Without an opener, or with --no-open, the address is
printed for you to open instead.`,
  options: {
    "no-open": { type: "boolean", help: "print the address instead of opening a browser" },
    "sign-out-all": {
      type: "boolean",
      help: "end every Studio session of this project, in every browser, and open nothing",
    },
  },
  json: 'print { "url": "http://127.0.0.1:PORT/studio/?ticket=…", "expiresAt": ISO time } and open ' +
    'nothing; with --sign-out-all, { "signedOut": true }',
  notes: "The address works once, within about a minute: run `weft studio` again for a new one. If the\n" +
    "browser cannot read files in hidden folders (some sandboxed browsers), use --no-open.",
  async run({ positionals, projectDir, json, options }) {
    if (positionals.length) {
      throw new UsageError("takes no arguments (a project is named with --project DIR)");
    }
    if (options["no-open"] && options["sign-out-all"]) {
      throw new UsageError("--sign-out-all opens nothing: leave out --no-open");
    }
    const say = (line: string) => console.error(line);
    const connection = await reachService(projectDir, () => verifiedConnection(projectDir), {
      start: true,
      progress: say,
    });
    if (options["sign-out-all"]) {
      await askService(connection, STUDIO_SIGN_OUT_PATH, "the service refused to end the Studio sessions");
      if (json) printJson({ signedOut: true });
      else console.log("Every Studio session of this project has ended; `weft studio` opens a new one.");
      return EXIT.OK;
    }
    const opening = !json && !options["no-open"];
    const { url, expiresAt, redirectFile } = await mintTicket(connection, opening);
    if (json) {
      printJson({ url, expiresAt });
      return EXIT.OK;
    }
    const page = new URL(url);
    const shown = `${page.origin}${page.pathname}`;
    if (opening) {
      const outcome = await openInBrowser(redirectFile!);
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

/**
 * Asks the service for a ticket, presenting the internal token to the instance `connection` was checked for;
 * with `redirectFile`, also for the file that opens it.
 */
async function mintTicket(connection: ConnectionInfo, redirectFile: boolean): Promise<MintedTicket> {
  const path = redirectFile ? `${STUDIO_TICKET_PATH}?redirectFile=true` : STUDIO_TICKET_PATH;
  const minted = await askService(connection, path, "the service refused a Studio ticket") as Partial<
    MintedTicket
  >;
  if (
    typeof minted.url !== "string" || typeof minted.expiresAt !== "string" ||
    (redirectFile && typeof minted.redirectFile !== "string")
  ) {
    throw new CommandFailure(
      "FAILURE",
      "the service answered a ticket request without an address",
      "`weft doctor` checks the project",
    );
  }
  return { url: minted.url, expiresAt: minted.expiresAt, redirectFile: minted.redirectFile };
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
    throw new CommandFailure(
      "FAILURE",
      `${refusal} (HTTP ${response.status})`,
      "`weft doctor` checks the project; `weft logs` shows what the service saw",
    );
  }
  return await response.json();
}
