/**
 * The commands weft prints for a person can be pasted where the person is: a checkout's program through npx
 * (there is no `weft` on PATH), with `--project DIR` when the project is not the working directory; and an
 * offline service's error names the project folder it looked in.
 */

import assert from "node:assert/strict";
import { runWeft, tempProject } from "../support/service.ts";
import { shellWords } from "../support/shell_words.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const PREFIX = ["npx", "-y", `deno@${Deno.version.deno}`, "run", "-A", MAIN];

/** The command of the hint labelled `label` in `output`. */
function hinted(output: string, label: string): string {
  const line = output.split("\n").find((line) => line.startsWith(`${label}: `));
  assert.ok(line, `no "${label}:" hint in\n${output}`);
  return line.slice(label.length + 2);
}

/** Runs a printed command as the person pastes it, with this Deno in place of the one npx would fetch. */
async function paste(command: string, cwd: string) {
  const words = shellWords(command);
  assert.deepEqual(words.slice(0, PREFIX.length), PREFIX, command);
  return await runWeft(words.slice(PREFIX.length), { cwd });
}

Deno.test("hints printed from another folder run as pasted there, naming the project; offline names it too", async () => {
  const project = await tempProject();
  const elsewhere = await Deno.makeTempDir({ prefix: "weft-elsewhere-" });
  try {
    const offline = await runWeft(["runs", "--project", project], { cwd: elsewhere });
    assert.equal(offline.code, 3);
    assert.match(offline.stderr, new RegExp(`SERVICE_OFFLINE: .*\\(project ${project}\\)`));
    assert.ok(offline.stderr.includes(`\`${PREFIX.join(" ")} start --project ${project}\``), offline.stderr);

    const init = await runWeft(["init", "notes", "--project", project], { cwd: elsewhere });
    assert.equal(init.code, 0, init.stderr);
    const runIt = hinted(init.stdout, "run it");
    assert.match(runIt, new RegExp(`--project ${project}$`));

    const flow = await paste(runIt, elsewhere);
    assert.equal(flow.code, 0, flow.stderr);
    const answer = await paste(hinted(flow.stdout, "answer with"), elsewhere);
    assert.equal(answer.code, 0, answer.stderr);
    assert.match(answer.stdout, /waiting/);

    const inside = await runWeft(["runs"], { cwd: project });
    assert.ok(inside.stdout.includes(`answer with: ${PREFIX.join(" ")} attach run_`), inside.stdout);
    assert.doesNotMatch(inside.stdout, /--project/, "in the project itself no --project is needed");
  } finally {
    await runWeft(["stop", "--project", project]);
    await Deno.remove(project, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});
