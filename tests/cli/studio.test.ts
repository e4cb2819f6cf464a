/**
 * `weft studio` end to end: it starts the service when none runs, asks it for a ticket, opens a 0600
 * redirect file with the person's browser opener (a script standing in for one here) so that no process's
 * command line carries the ticket, or prints the address; `--sign-out-all` ends every session, also across a
 * restart; and no ticket reaches a log.
 */

import assert from "node:assert/strict";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";
import { runWeft, serviceFiles, tempProject } from "../support/service.ts";
import { NOTES_PROJECT } from "./support.ts";

const STUDIO_URL = /^http:\/\/127\.0\.0\.1:(\d+)\/studio\/\?ticket=([A-Za-z0-9_-]{43})$/;

/** What a browser holds after exchanging a ticket: the session cookie and the page's tab key. */
interface BrowserSession {
  origin: string;
  cookie: string;
  key: string;
}

/** Exchanges the ticket of `url` as a browser would; resolves with the status (200 when it opened Studio). */
async function exchange(url: string): Promise<number> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return response.status;
}

/** Exchanges the ticket of `url` and keeps what the browser would. */
async function openSession(url: string): Promise<BrowserSession> {
  const response = await fetch(url, { redirect: "manual" });
  assert.equal(response.status, 200, "the ticket opened Studio");
  const key = /name="weft-studio-key" content="([^"]+)"/.exec(await response.text())![1];
  const cookie = response.headers.getSetCookie()[0].split(";")[0];
  return { origin: new URL(url).origin, cookie, key };
}

/** The status of an MCP initialize on Studio's endpoint as the page sends it. */
async function initializeAs(session: BrowserSession): Promise<number> {
  const response = await fetch(`${session.origin}/internal/mcp/studio`, {
    method: "POST",
    headers: {
      ...mcpHeaders(undefined),
      cookie: session.cookie,
      origin: session.origin,
      "weft-studio-key": session.key,
    },
    body: JSON.stringify(initializeRequest("studio-cli-test")),
  });
  await response.body?.cancel();
  return response.status;
}

/**
 * A `$BROWSER` that records, into `folder`, its arguments, the mode and content of the file it was given,
 * the ticket in that file, and which processes' command lines (`/proc/PID/cmdline`) carry that ticket while
 * it runs; its own arguments and those of the tools it runs never hold the ticket (grep reads it from a file).
 */
const RECORDING_OPENER = `#!/bin/sh
rec="$(dirname "$0")"
printf '%s\\n' "$@" > "$rec/argv"
file="$(printf '%s' "$1" | sed 's|^file://||')"
stat -c %a "$file" > "$rec/mode"
cat "$file" > "$rec/page"
sed -n 's/.*ticket=\\([A-Za-z0-9_-]*\\).*/\\1/p' "$file" | head -n 1 > "$rec/ticket"
grep -l -F -f "$rec/ticket" /proc/[0-9]*/cmdline > "$rec/carriers" 2>/dev/null
exit 0
`;

Deno.test("weft studio starts the service, opens a single-use address with the browser, and logs no ticket", async (t) => {
  const cwd = await tempProject(NOTES_PROJECT);
  const tickets: string[] = [];
  try {
    await t.step(
      "--json starts the service when none runs and prints the address, opening nothing",
      async () => {
        const { code, stdout, stderr } = await runWeft(["studio", "--json"], {
          cwd,
          env: { BROWSER: "/nonexistent/must-not-run" },
        });
        assert.equal(code, 0, stderr);
        assert.match(stderr, /starting the weft service/);
        const { url, expiresAt } = JSON.parse(stdout);
        const [, port, ticket] = STUDIO_URL.exec(url) ?? assert.fail(`not a Studio address: ${url}`);
        const connection = JSON.parse(await Deno.readTextFile(`${cwd}/.weft/connection.json`));
        assert.equal(Number(port), connection.port);
        assert.ok(Date.parse(expiresAt) > Date.now(), "the ticket is still valid");
        tickets.push(ticket);
        assert.equal(await exchange(url), 200, "the printed address opens Studio");
        assert.equal(await exchange(url), 403, "and only once");
      },
    );

    await t.step(
      "without --no-open $BROWSER gets a 0600 redirect file, no command line carries the ticket, the file goes once used",
      async () => {
        const rec = await Deno.makeTempDir({ prefix: "weft-browser-" });
        try {
          await Deno.writeTextFile(`${rec}/opener.sh`, RECORDING_OPENER);
          await Deno.chmod(`${rec}/opener.sh`, 0o700);
          const { code, stdout, stderr } = await runWeft(["studio"], {
            cwd,
            env: { BROWSER: `${rec}/opener.sh` },
          });
          assert.equal(code, 0, stderr);
          const read = (name: string) => Deno.readTextFile(`${rec}/${name}`).then((text) => text.trim());
          const ticket = await read("ticket");
          assert.match(ticket, /^[A-Za-z0-9_-]{43}$/, "the file holds the ticket");
          tickets.push(ticket);
          const argv = await read("argv");
          assert.match(argv, /^file:\/\/\/.*\/\.weft\/studio-open-[A-Za-z0-9_-]+\.html$/, "one file address");
          assert.ok(!argv.includes(ticket), "the opener's arguments carry no ticket");
          assert.equal(await read("carriers"), "", "no process's command line carries the ticket");
          assert.equal(await read("mode"), "600");
          const url = /url=([^"]+)"/.exec(await read("page"))?.[1] ?? assert.fail("the file sends nowhere");
          const [, port] = STUDIO_URL.exec(url) ?? assert.fail(`not a Studio address: ${url}`);
          assert.ok(url.endsWith(ticket));
          assert.equal(stdout.trim(), `Studio opened in your browser: http://127.0.0.1:${port}/studio/`);
          assert.ok(!stderr.includes(ticket), "the opened ticket is shown nowhere");

          const file = new URL(argv).pathname;
          assert.ok(await Deno.stat(file), "the file waits for the browser");
          assert.equal(await exchange(url), 200);
          assert.equal(await Deno.stat(file).catch(() => null), null, "the used ticket's file is gone");
        } finally {
          await Deno.remove(rec, { recursive: true });
        }
      },
    );

    await t.step(
      "--no-open, a missing opener, or a failing one: the address is printed instead",
      async () => {
        const cases: [string[], string, RegExp][] = [
          [["--no-open"], "/nonexistent/must-not-run", /^open it within a minute/m],
          [[], "/nonexistent/opener", /could not open a browser \(\/nonexistent\/opener is not installed\)/],
          [[], "false", /could not open a browser \(false exited with code 1\)/],
        ];
        for (const [args, browser, says] of cases) {
          const { code, stdout, stderr } = await runWeft(["studio", ...args], {
            cwd,
            env: { BROWSER: browser },
          });
          assert.equal(code, 0, stderr);
          assert.match(stderr, says);
          assert.match(stdout.trim(), STUDIO_URL, `${args} ${browser}`);
          tickets.push(STUDIO_URL.exec(stdout.trim())![2]);
          assert.equal(await exchange(stdout.trim()), 200);
        }
      },
    );

    await t.step(
      "--sign-out-all ends every Studio session, and they stay ended after a restart",
      async () => {
        const ask = async () => {
          const { stdout } = await runWeft(["studio", "--json"], { cwd });
          const { url } = JSON.parse(stdout);
          tickets.push(STUDIO_URL.exec(url)![2]);
          return url as string;
        };
        const before = [await openSession(await ask()), await openSession(await ask())];
        for (const session of before) assert.equal(await initializeAs(session), 200);

        const { code, stdout, stderr } = await runWeft(["studio", "--sign-out-all"], { cwd });
        assert.equal(code, 0, stderr);
        assert.match(stdout, /Every Studio session of this project has ended/);
        for (const session of before) assert.equal(await initializeAs(session), 401, "a session before");
        const json = await runWeft(["studio", "--sign-out-all", "--json"], { cwd });
        assert.deepEqual(JSON.parse(json.stdout), { signedOut: true });

        const after = await openSession(await ask());
        assert.equal(await initializeAs(after), 200, "a session opened since works");
        assert.equal((await runWeft(["stop"], { cwd })).code, 0);
        assert.equal((await runWeft(["start"], { cwd })).code, 0);
        assert.equal(await initializeAs(after), 200, "sessions survive a restart (on the same port)");
        for (const session of before) {
          assert.equal(await initializeAs(session), 401, "and ended ones stay ended");
        }
      },
    );

    await t.step("arguments are a usage error", async () => {
      const { code, stderr } = await runWeft(["studio", "now"], { cwd });
      assert.equal(code, 2);
      assert.match(stderr, /takes no arguments/);
    });

    await t.step("no ticket is written anywhere under .weft/ (logs, metadata, database)", async () => {
      const state = await serviceFiles(cwd);
      assert.match(state, /studio\.ticket/, "the log does record that tickets were minted");
      for (const ticket of tickets) {
        assert.ok(!state.includes(ticket), "a ticket reached the service's files");
      }
    });
  } finally {
    await runWeft(["stop"], { cwd });
    await Deno.remove(cwd, { recursive: true });
  }
});
