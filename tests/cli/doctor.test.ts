/**
 * `weft doctor` on a project in trouble: a crashed service's lock, a workflow that does not load, modes that
 * are too open and a port taken since the last start; then the same project with its service running.
 */

import assert from "node:assert/strict";
import { runWeft, serve } from "../support/service.ts";
import { notesProject } from "./support.ts";

interface Finding {
  check: string;
  state: "ok" | "note" | "problem";
  message: string;
  fix?: string;
}

const BROKEN = {
  name: "broken",
  title: "Broken",
  description: "",
  entryStage: "draft",
  stages: {},
  colour: "red",
};

Deno.test("doctor names each problem of a troubled project with the command that fixes it", async (t) => {
  const cwd = await notesProject({ "workflows/broken/workflow.json": JSON.stringify(BROKEN) });
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const gone = new Deno.Command("true").spawn();
    await gone.status;
    await Deno.mkdir(`${cwd}/.weft/logs`, { recursive: true });
    await Deno.writeTextFile(
      `${cwd}/.weft/service.lock`,
      JSON.stringify({ pid: gone.pid, instanceId: "inst_gone", startedAt: new Date().toISOString() }),
    );
    const port = (taken.addr as Deno.NetAddr).port;
    const connection = {
      version: 1,
      url: `http://127.0.0.1:${port}`,
      port,
      pid: gone.pid,
      instanceId: "inst_gone",
      externalToken: "e".repeat(43),
      internalToken: "i".repeat(43),
    };
    await Deno.writeTextFile(`${cwd}/.weft/connection.json`, JSON.stringify(connection), { mode: 0o644 });
    await Deno.chmod(`${cwd}/.weft/connection.json`, 0o644);
    await Deno.chmod(`${cwd}/.weft`, 0o755);

    await t.step("offline, it reads .weft/ and the workflows itself", async () => {
      const { code, stdout } = await runWeft(["doctor", "--json"], { cwd });
      assert.equal(code, 1);
      const { findings, problems } = JSON.parse(stdout) as { findings: Finding[]; problems: number };
      const find = (check: string) => findings.filter((f) => f.check === check);
      assert.equal(find("service")[0].state, "note");
      assert.equal(find("service")[0].fix, "weft start");
      const [lock] = find("leftovers");
      assert.equal(lock.state, "problem");
      assert.match(lock.message, new RegExp(`process ${gone.pid} .*gone`));
      assert.match(lock.fix!, /^weft start/);
      const [port] = find("port");
      assert.equal(port.state, "note");
      assert.match(port.message, new RegExp(`port ${connection.port}.* taken`));
      assert.match(port.fix!, /weft start --port/);
      const [workflow] = find("workflows");
      assert.equal(workflow.state, "problem");
      assert.match(workflow.message, /workflows\/broken\/workflow\.json#\/colour: unknown field/);
      assert.deepEqual(find("modes").map((f) => f.fix), [
        "chmod 700 .weft",
        "chmod 700 .weft/logs",
        "chmod 600 .weft/connection.json",
      ]);
      assert.equal(problems, 5);

      const human = await runWeft(["doctor"], { cwd, env: { NO_COLOR: "1" } });
      assert.equal(human.code, 1);
      assert.match(human.stdout, /✗ modes +\.weft has mode 0755.*\n +fix: chmod 700 \.weft/);
      assert.match(human.stdout, /5 problems found/);
    });

    await t.step("with the service running, it asks the service", async () => {
      taken.close();
      const served = await serve(cwd);
      try {
        const { code, stdout } = await runWeft(["doctor", "--json"], { cwd });
        assert.equal(code, 1);
        const { findings } = JSON.parse(stdout) as { findings: Finding[] };
        const state = Object.fromEntries(findings.map((f) => [f.check, f.state]));
        assert.deepEqual(state, {
          service: "ok",
          leftovers: "ok",
          port: "ok",
          workflows: "problem",
          model: "note",
          modes: "ok",
        });
        const model = findings.find((f) => f.check === "model")!;
        assert.match(model.message, /intent/);
        assert.match(model.fix!, /weft config/);
      } finally {
        await served.stop();
      }
    });
  } finally {
    try {
      taken.close();
    } catch {
      // closed by the second step
    }
    await Deno.remove(cwd, { recursive: true });
  }
});
