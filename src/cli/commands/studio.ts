/**
 * `weft studio`: opens Studio, the project's page in a web browser, or ends every Studio session. The command
 * is a client of the service like every other: it asks the service for a single-use ticket
 * (`src/client/studio_ticket.ts`), and hands the browser opener only the address of the 0600 redirect file
 * the service wrote for it, since any user can read a process's arguments. The ticket's address is printed
 * only when it is not opened, and never logged.
 *
 * @module
 */

import { reachService } from "../../client/reach.ts";
import { endStudioSessions, mintTicket } from "../../client/studio_ticket.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { openInBrowser } from "../terminal/browser.ts";
import { printJson } from "../terminal/format.ts";
import { say } from "../terminal/screen.ts";

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
    const note = (line: string) => say(line, Deno.stderr);
    const connection = await reachService(projectDir, { start: true, progress: note });
    if (options["sign-out-all"]) {
      await endStudioSessions(connection);
      if (json) printJson({ signedOut: true });
      else say("Every Studio session of this project has ended; `weft studio` opens a new one.");
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
        say(`Studio opened in your browser: ${shown}`);
        return EXIT.OK;
      }
      note(`could not open a browser (${outcome.reason}); set BROWSER, or open the address below`);
    }
    say(url);
    note("open it within a minute; it works once (run `weft studio` again for a new one)");
    return EXIT.OK;
  },
});
