/**
 * `weft studio` end to end: it starts the service when none runs, asks it for a ticket, opens the address with
 * the person's browser opener (a script standing in for one here) or prints it, and no ticket reaches a log.
 */

import assert from "node:assert/strict";
import { runWeft, serviceFiles, tempProject } from "../support/service.ts";
import { NOTES_PROJECT } from "./support.ts";

const STUDIO_URL = /^http:\/\/127\.0\.0\.1:(\d+)\/studio\/\?ticket=([A-Za-z0-9_-]{43})$/;

/** Exchanges the ticket of `url` as a browser would; resolves with the status (303 when it opened Studio). */
async function exchange(url: string): Promise<number> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return response.status;
}

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
        assert.equal(await exchange(url), 303, "the printed address opens Studio");
        assert.equal(await exchange(url), 403, "and only once");
      },
    );

    await t.step("without --no-open the address goes to $BROWSER, and only its page is printed", async () => {
      const opened = `${cwd}/opened.txt`;
      const opener = `${cwd}/opener.sh`;
      await Deno.writeTextFile(opener, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      await Deno.chmod(opener, 0o700);
      const { code, stdout, stderr } = await runWeft(["studio"], { cwd, env: { BROWSER: opener } });
      assert.equal(code, 0, stderr);
      const url = await Deno.readTextFile(opened);
      const [, port, ticket] = STUDIO_URL.exec(url) ?? assert.fail(`not a Studio address: ${url}`);
      tickets.push(ticket);
      assert.equal(stdout.trim(), `Studio opened in your browser: http://127.0.0.1:${port}/studio/`);
      assert.ok(!stderr.includes(ticket), "the opened ticket is shown nowhere");
      assert.equal(await exchange(url), 303);
    });

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
          assert.equal(await exchange(stdout.trim()), 303);
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
