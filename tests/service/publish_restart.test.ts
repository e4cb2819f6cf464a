/**
 * A service killed in the middle of publishing loses nothing and leaves nothing among the person's files:
 * the next start finishes the publication, exactly once, and no temporary file is left in the project.
 *
 * The kill comes at a seeded moment without any hook in the product: once the service is ready it is given
 * a file size limit (`prlimit`) below the size of the document it publishes, so the kernel ends it with
 * SIGXFSZ (which it does not catch, any more than SIGKILL) while it writes the document's temporary file.
 */

import assert from "node:assert/strict";
import type { RunEventView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve, tempProject } from "../support/service.ts";
import { within } from "../support/deadline.ts";
import { expandingFiles } from "../support/workflows.ts";
import { temporaryFiles } from "../support/temporary_files.ts";

/** 100 lines of 9,990 characters: a document of about 1,000,000 bytes, within the bound of one. */
const TEMPLATE = "{{#a}}" + "x".repeat(9_990 - 4) + "{{.}}\n{{/a}}";

/** The service's file size limit, in bytes: below the document, above anything else it writes. */
const LIMIT_BYTES = 900 * 1024;

/** This checkout's program without Deno's code cache, a file the limit would otherwise reach first. */
const PROGRAM = ["run", "-A", "--no-code-cache", new URL("../../main.ts", import.meta.url).pathname];

/** Limits the size of the files process `pid` writes to `bytes`. */
async function limitFileSize(pid: number, bytes: number): Promise<void> {
  const { code, stderr } = await new Deno.Command("prlimit", {
    args: [`--pid=${pid}`, `--fsize=${bytes}:${bytes}`],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
}

Deno.test("publish restart: a service killed while it writes a publication finishes it at its next start, once", async () => {
  const dir = await tempProject(expandingFiles(100, TEMPLATE));
  try {
    const limited = await serve(dir, { program: PROGRAM });
    try {
      await limitFileSize(limited.process.pid, LIMIT_BYTES);
      const client = await mcpClient(limited, "/mcp");
      const started = call(client, "flow", { flowName: "expand", intent: "Expand" });
      await assert.rejects(within("the call the kill cuts", started));
      const status = await within("the service to die", limited.process.status);
      assert.equal(status.signal, "SIGXFSZ", "killed while it wrote the publication");
      await client.close().catch(() => {});
    } finally {
      await limited.kill();
    }
    await assert.rejects(Deno.stat(`${dir}/docs/expand.md`), Deno.errors.NotFound);

    for (const start of [1, 2]) {
      const served = await serve(dir);
      try {
        const client = await mcpClient(served, "/mcp");
        try {
          const { runs } = await call<{ runs: { runId: string; status: string }[] }>(client, "list_runs");
          assert.deepEqual(runs.map((run) => run.status), ["completed"], "the commit came before the kill");
          const { timeline } = await call<{ timeline: RunEventView[] }>(client, "get_run", {
            runId: runs[0].runId,
            timeline: true,
          });
          const outcomes = timeline.filter((event) =>
            ["artifact_published", "publish_skipped", "publish_failed"].includes(event.type)
          );
          assert.deepEqual(
            outcomes.map((event) => event.type),
            ["artifact_published"],
            `after start ${start}`,
          );
          const status = await call<{ service: { publications: { files: number; changed: unknown[] } } }>(
            client,
            "status",
          );
          assert.deepEqual(status.service.publications, { files: 1, changed: [] });
        } finally {
          await closeClient(client);
        }
      } finally {
        await served.stop();
      }
      const document = await Deno.readTextFile(`${dir}/docs/expand.md`);
      assert.match(document, /^---\nweft:\n/);
      assert.equal(document.split("\n").filter((line) => line.startsWith("xxx")).length, 100);
      assert.deepEqual(await temporaryFiles(dir), [], "no temporary file is left among the project's files");
      assert.deepEqual([...Deno.readDirSync(`${dir}/.weft/tmp`)], [], "nor in weft's own folder for them");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
