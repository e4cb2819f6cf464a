/**
 * docs/embedding.md works as written: its sidecar example, taken from the page itself and run by Node (as
 * Electron would), starts `weft serve` exactly as the page says, its `studioUrl` opens Studio in Chromium (ticket exchanged, page
 * loaded and connected, address clean), and closing stdin or SIGTERM stops the service cleanly; a second sidecar for the same
 * project is refused with the code the page documents.
 */

import assert from "node:assert/strict";
import { StreamText, within } from "../support/deadline.ts";
import { tempProject } from "../support/service.ts";
import { browserSteps, newPerson, running, shown, withBrowser } from "./support.ts";

const DOC = new URL("../../docs/embedding.md", import.meta.url);
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
/** The `weft` command of this checkout, given to the example in place of an installed binary. */
const WEFT = [Deno.execPath(), "run", "-A", MAIN];

/**
 * The test's own driver, run by Node: it imports the page's example unchanged, starts a sidecar, prints one
 * JSON line with what the example resolved (or its error), then stops it the way each stdin line names and
 * prints the exit code the example reports.
 */
const HARNESS = `import { createInterface } from "node:readline";
import { startWeft } from "./weft_sidecar.mjs";
const [projectDir, ...weft] = process.argv.slice(2);
const print = (value) => process.stdout.write(JSON.stringify(value) + "\\n");
try {
  const sidecar = await startWeft(projectDir, weft);
  print({ url: sidecar.url, studioUrl: sidecar.studioUrl });
  for await (const how of createInterface({ input: process.stdin })) {
    print({ exit: await sidecar.stop(how) });
    break;
  }
} catch (error) {
  print({ error: error.message });
}
process.exit(0);
`;

/** The page's example, driven from Node (Electron's runtime) in a child process. */
class NodeSidecar {
  #child: Deno.ChildProcess;
  #stdout: StreamText;
  #read = 0;

  constructor(dir: string, projectDir: string) {
    this.#child = new Deno.Command("node", {
      args: [`${dir}/harness.mjs`, projectDir, ...WEFT],
      cwd: dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#stdout = new StreamText(this.#child.stdout, "the Node driver of the example");
  }

  /** The next JSON line the driver prints. */
  async next(): Promise<Record<string, unknown>> {
    const end = await this.#stdout.until("\n", this.#read);
    const line = this.#stdout.text.slice(this.#read, end);
    this.#read = end;
    return JSON.parse(line);
  }

  /** Stops the sidecar by `how`; resolves with the exit code the example reports for weft. */
  async stop(how: "stdin" | "SIGTERM"): Promise<unknown> {
    const writer = this.#child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(how + "\n"));
    await writer.close();
    return (await this.next()).exit;
  }

  /** Waits for the driver to end (it ends by itself after a stop or an error); past the deadline, ends it. */
  async close(): Promise<void> {
    await this.#child.stdin.close().catch(() => {});
    try {
      await within("the Node driver to exit", this.#child.status);
    } catch (error) {
      this.#child.kill("SIGKILL");
      await this.#child.status;
      throw error;
    }
    await within("the driver's output to end", this.#stdout.drain());
  }
}

/** Writes the page's example module and the driver into `dir`. */
async function writeExample(dir: string): Promise<void> {
  const page = await Deno.readTextFile(DOC);
  const [, code] = /^## Example$[^]*?^```js\n([^]*?)^```$/m.exec(page) ??
    assert.fail("docs/embedding.md has no ```js block under ## Example");
  await Deno.writeTextFile(`${dir}/weft_sidecar.mjs`, code);
  await Deno.writeTextFile(`${dir}/harness.mjs`, HARNESS);
}

Deno.test({
  name:
    "docs/embedding.md: the sidecar example starts weft, opens Studio in a browser, and stops it both ways",
  // The browser's and the example's child-process pipes outlive single steps.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const dir = await tempProject();
    const exampleDir = await Deno.makeTempDir({ prefix: "weft-embedding-" });
    try {
      await writeExample(exampleDir);
      const step = browserSteps(t);

      await withBrowser(async (browser) => {
        for (const how of ["stdin", "SIGTERM"] as const) {
          await step(
            `the ready line's studioUrl opens Studio; ${how} stops the service (exit 0)`,
            async () => {
              const sidecar = new NodeSidecar(exampleDir, dir);
              try {
                const { url, studioUrl, error } = await sidecar.next() as Record<string, string>;
                assert.equal(error, undefined);
                assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
                assert.match(studioUrl, /^http:\/\/127\.0\.0\.1:\d+\/studio\/\?ticket=[A-Za-z0-9_-]{43}$/);
                assert.ok(studioUrl.startsWith(`${url}/studio/`));
                const person = await newPerson(browser);
                try {
                  const page = await person.newPage();
                  const opened = await page.goto(studioUrl);
                  assert.equal(opened?.status(), 200, "the ticket was exchanged and the page served");
                  await running(page);
                  assert.equal(new URL(page.url()).search, "", "the ticket left the address");
                  assert.ok(page.url().startsWith(`${url}/studio/`));
                  await shown(page.getByRole("heading", { name: "weft Studio" }), "Studio's heading");
                  await shown(
                    page.getByRole("status").getByText("Live"),
                    "Studio connected, with its tab key",
                  );
                  const cookies = await person.cookies(`${url}/studio/`);
                  assert.equal(cookies.length, 1, "the web view holds Studio's session cookie");
                } finally {
                  await person.close();
                }
                assert.equal(await sidecar.stop(how), 0, `weft exits 0 on ${how}`);
              } finally {
                await sidecar.close();
              }
              const lock = await Deno.stat(`${dir}/.weft/service.lock`).catch(() => null);
              assert.equal(lock, null, "the project is released");
            },
          );
        }
      });

      await step(
        "a second sidecar for a project whose service runs is refused with ALREADY_RUNNING",
        async () => {
          const first = new NodeSidecar(exampleDir, dir);
          try {
            assert.ok((await first.next()).studioUrl);
            const second = new NodeSidecar(exampleDir, dir);
            try {
              assert.match(String((await second.next()).error), /did not start \(ALREADY_RUNNING\)/);
            } finally {
              await second.close();
            }
            assert.equal(await first.stop("stdin"), 0);
          } finally {
            await first.close();
          }
        },
      );
    } finally {
      await Deno.remove(exampleDir, { recursive: true });
      await Deno.remove(dir, { recursive: true });
    }
  },
});
