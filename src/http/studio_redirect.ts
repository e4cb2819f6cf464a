/**
 * Redirect files: how `weft studio` hands a ticket to the person's browser without putting it on any command
 * line. Another user can read every process's arguments (`/proc/PID/cmdline`), so an opener started with the
 * ticket's address would give the ticket away. Instead the service writes a small HTML page that sends the
 * browser on to the address, as a new file of mode 0600 in `.weft/` (a 0700 folder of the person's), and the
 * opener is given only that file's `file://` address. The file goes once its ticket is used or can no longer
 * be (after {@linkcode TICKET_TTL_MS} at most), and a start of the service removes what a killed one left.
 *
 * @module
 */

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { randomId } from "../lib/tokens.ts";
import { escapeHtml } from "../studio/first_view_html.ts";
import { TICKET_TTL_MS } from "./studio_access.ts";

const PREFIX = "studio-open-";
const NAME = /^studio-open-[A-Za-z0-9_-]+\.html$/;

/** The redirect files of one service, in `folder`. */
export class StudioRedirectFiles {
  #files = new Map<string, { path: string; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly folder: string, private readonly lifetimeMs = TICKET_TTL_MS) {}

  /** Writes the file that opens `url` (which holds `ticket`); resolves with the file's `file://` address. */
  async write(ticket: string, url: string): Promise<string> {
    const path = join(this.folder, `${PREFIX}${randomId(12)}.html`);
    await Deno.writeTextFile(path, redirectPage(url), { createNew: true, mode: 0o600 });
    // The mode given at creation is narrowed by the umask; this makes it exact.
    if (Deno.build.os !== "windows") await Deno.chmod(path, 0o600);
    const timer = setTimeout(() => void this.remove(ticket), this.lifetimeMs);
    Deno.unrefTimer(timer);
    this.#files.set(ticket, { path, timer });
    return fileAddress(path);
  }

  /** Removes the file of `ticket`, if it has one; never fails. */
  async remove(ticket: string): Promise<void> {
    const file = this.#files.get(ticket);
    if (!file) return;
    this.#files.delete(ticket);
    clearTimeout(file.timer);
    await Deno.remove(file.path).catch(() => {});
  }

  /** Removes every file, this service's and those a killed one left; never fails. */
  async removeAll(): Promise<void> {
    await Promise.all([...this.#files.keys()].map((ticket) => this.remove(ticket)));
    try {
      for await (const entry of Deno.readDir(this.folder)) {
        if (entry.isFile && NAME.test(entry.name)) {
          await Deno.remove(join(this.folder, entry.name)).catch(() => {});
        }
      }
    } catch {
      // No folder, or one it cannot read: nothing of ours to remove.
    }
  }
}

/**
 * The `file://` address of `path`, with the characters that Windows' `cmd` (the opener there) would interpret
 * percent-encoded as well, since the project's folder may have any name.
 */
function fileAddress(path: string): string {
  return pathToFileURL(path).href.replace(
    /[&|<>^()!"]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A page that goes on to `url` at once, with a link for a browser that does not follow refreshes. */
function redirectPage(url: string): string {
  const href = escapeHtml(url);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}"><title>Opening weft Studio</title></head>
<body><p>Opening <a href="${href}">weft Studio</a>…</p></body></html>
`;
}
