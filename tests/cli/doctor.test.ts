/**
 * `weft doctor` on a project in trouble: a crashed service's lock, a workflow that does not load, modes that
 * are too open and a port taken since the last start; then the same project with its service running.
 */

import assert from "node:assert/strict";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { NOTES_PROJECT } from "./support.ts";

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
  const cwd = await tempProject({
    ...NOTES_PROJECT,
    "workflows/broken/workflow.json": JSON.stringify(BROKEN),
  });
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const gone = new Deno.Command("true").spawn();
    await gone.status;
    // Leftovers as weft itself leaves them: owner-only modes, so the state is weft's own.
    await Deno.mkdir(`${cwd}/.weft/logs`, { recursive: true });
    await Deno.writeTextFile(
      `${cwd}/.weft/service.lock`,
      JSON.stringify({ pid: gone.pid, instanceId: "inst_gone", startedAt: new Date().toISOString() }),
    );
    await Deno.chmod(`${cwd}/.weft/service.lock`, 0o600);
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
    await Deno.writeTextFile(`${cwd}/.weft/connection.json`, JSON.stringify(connection));
    await Deno.chmod(`${cwd}/.weft/connection.json`, 0o600);
    await Deno.chmod(`${cwd}/.weft/logs`, 0o700);
    await Deno.chmod(`${cwd}/.weft`, 0o700);

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
      assert.equal(find("modes")[0].state, "ok");
      assert.equal(problems, 2);
    });

    await t.step(
      "a .weft/ with modes opened up is not weft's own: named with its fix, and not read",
      async () => {
        await Deno.chmod(`${cwd}/.weft`, 0o755);
        const { code, stdout } = await runWeft(["doctor", "--json"], { cwd });
        assert.equal(code, 1);
        const { findings } = JSON.parse(stdout) as { findings: Finding[] };
        assert.deepEqual(findings.map((f) => f.check), ["modes", "workflows"]);
        assert.match(findings[0].message, /\.weft has mode 0755/);
        assert.match(findings[0].fix!, /^mv \.weft \.weft\.untrusted/);
        const human = await runWeft(["doctor"], { cwd, env: { NO_COLOR: "1" } });
        assert.match(human.stdout, /✗ modes +\.weft has mode 0755.*\n +fix: mv \.weft \.weft\.untrusted/);
        await Deno.chmod(`${cwd}/.weft`, 0o700);
      },
    );

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
          processes: "ok",
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

Deno.test("git never takes .weft/: weft writes .weft/.gitignore, and doctor reports a .weft/ git would track", async (t) => {
  const cwd = await tempProject(NOTES_PROJECT);
  const git = async (...args: string[]) => {
    const output = await new Deno.Command("git", { args, cwd, stdin: "null" }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    return new TextDecoder().decode(output.stdout);
  };
  const gitFinding = async () => {
    const { stdout } = await runWeft(["doctor", "--json"], { cwd });
    return (JSON.parse(stdout) as { findings: Finding[] }).findings.find((f) => f.check === "git");
  };
  try {
    await git("init", "-q");
    await t.step(
      "a served project's .weft/ holds a .gitignore of *, so `git add .` passes it by",
      async () => {
        const served = await serve(cwd);
        try {
          assert.match(await Deno.readTextFile(`${cwd}/.weft/.gitignore`), /^\*$/m);
          const added = await git("add", "-n", ".");
          assert.match(added, /workflows\/notes\/workflow\.json/);
          assert.doesNotMatch(added, /\.weft/);
          assert.deepEqual(await gitFinding(), { check: "git", state: "ok", message: "git ignores .weft/" });
        } finally {
          await served.stop();
        }
      },
    );

    await t.step("without it, doctor says git would add .weft/ and how to stop it", async () => {
      await Deno.remove(`${cwd}/.weft/.gitignore`);
      const finding = await gitFinding();
      assert.equal(finding?.state, "problem");
      assert.equal(finding?.message, "git would add .weft/ (tokens and answers) with the next `git add .`");
      assert.match(finding!.fix!, /printf '\*\\n' > .*\.weft\/\.gitignore/);
    });

    await t.step("files of .weft/ already tracked are named, with the way out", async () => {
      await git("add", "-f", ".weft/connection.json");
      const finding = await gitFinding();
      assert.equal(finding?.state, "problem");
      assert.match(finding!.message, /git tracks 1 file\(s\) of \.weft\/ \(\.weft\/connection\.json\)/);
      assert.match(finding!.fix!, /git rm -r --cached \.weft/);
    });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("doctor's fix for a manifest placed directly in workflows/ is to move it into a folder", async () => {
  const cwd = await tempProject({ "workflows/workflow.json": "{}", "workflows/workflow.schema.json": "{}" });
  try {
    const { stdout } = await runWeft(["doctor", "--json"], { cwd });
    const findings = (JSON.parse(stdout) as { findings: Finding[] }).findings
      .filter((f) => f.check === "workflows");
    assert.equal(findings.length, 1, JSON.stringify(findings));
    assert.match(findings[0].message, /workflows\/workflow\.json: a workflow lives in a folder of its own/);
    assert.equal(
      findings[0].fix,
      'move workflows/workflow.json to workflows/<name>/workflow.json, <name> being its "name"; ' +
        "the service picks up edits without a restart (docs/workflows.md describes the format)",
    );
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("doctor names what the project asks to be trusted: a weft.json of commands only holds no models", async () => {
  const cwd = await tempProject({ "weft.json": JSON.stringify({ commands: { verify: ["true"] } }) });
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  const env = { XDG_CONFIG_HOME: configHome };
  const trust = async () => {
    const output = await runWeft(["doctor", "--json"], { cwd, env });
    return (JSON.parse(output.stdout) as { findings: Finding[] }).findings.find((f) => f.check === "trust")!;
  };
  try {
    const before = await trust();
    assert.equal(before.state, "problem");
    assert.match(before.message, /^you have not trusted the project's commands in weft\.json \(verify\)/);
    assert.equal((await runWeft(["trust", "--yes"], { cwd, env })).code, 0);
    const after = await trust();
    assert.equal(after.state, "ok");
    assert.match(after.message, /^you trust the project's commands in weft\.json \(verify\) \(sha256:/);
    assert.doesNotMatch(after.message, /model/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
    await Deno.remove(configHome, { recursive: true });
  }
});
