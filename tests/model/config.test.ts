/**
 * The model configuration: where roles come from, what readiness says without the network, and keys that
 * are refused when written into a file.
 */
import assert from "node:assert/strict";
import { configuredIdleExit, ModelConfig, modelRolesOf, parseModelConfig } from "../../src/model/config.ts";
import { renderModelConfigSchema } from "../../src/model/generate_schema.ts";
import { tempProject, trustProject } from "../support/service.ts";

/** Both files as given, the project's trusted (as after `weft trust --yes`) unless `trusted` is false. */
async function configWith(
  project: unknown,
  user: unknown,
  vars: Record<string, string> = {},
  trusted = true,
): Promise<{ config: ModelConfig; cleanup: () => Promise<void> }> {
  const projectDir = await tempProject(project === undefined ? {} : { "weft.json": JSON.stringify(project) });
  const userDir = await tempProject(user === undefined ? {} : { "weft/weft.json": JSON.stringify(user) });
  if (trusted && project !== undefined) await trustProject(projectDir, userDir);
  const env: Record<string, string> = { XDG_CONFIG_HOME: userDir, HOME: userDir, ...vars };
  return {
    config: ModelConfig.read(projectDir, (name) => env[name]),
    cleanup: async () => {
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    },
  };
}

const LOCAL = { provider: "openai-compatible", model: "qwen3", baseURL: "http://127.0.0.1:11434/v1" };
const HOSTED = { provider: "anthropic", model: "claude-sonnet-4-5", apiKeyEnv: "ANTHROPIC_API_KEY" };

Deno.test("a role resolves to the project's entry whole, else to the user's, never merged", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const { config, cleanup } = await configWith(
    { models: { default: { ...LOCAL, temperature: 0.1 } } },
    { models: { default: { ...HOSTED, temperature: 0.9, seed: 7 }, planner: HOSTED } },
    { ANTHROPIC_API_KEY: "k" },
  );
  try {
    const own = config.resolve("default");
    assert.ok(own.ok);
    assert.equal(own.model.origin, "project");
    assert.deepEqual(own.model.entry, { ...LOCAL, temperature: 0.1 });
    const personal = config.resolve("planner");
    assert.ok(personal.ok);
    assert.equal(personal.model.origin, "user");
    assert.deepEqual(config.roles(), ["default", "planner"]);
    assert.deepEqual(config.readiness("default"), {
      role: "default",
      ready: true,
      provider: "openai-compatible",
      model: "qwen3",
      baseURL: "http://127.0.0.1:11434/v1",
      origin: "project",
      trusted: true,
    });
    assert.deepEqual(config.readiness("planner"), {
      role: "planner",
      ready: true,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      baseURL: "https://api.anthropic.com/v1",
      origin: "user",
      apiKeyEnv: "ANTHROPIC_API_KEY",
      keySet: true,
    });
    const missing = config.readiness("reviewer");
    assert.equal(missing.ready, false);
    assert.match(
      missing.reason!,
      /no model is configured for the role "reviewer": add models.reviewer to weft.json/,
    );
  } finally {
    await cleanup();
  }
});

Deno.test("readiness: an unset key variable and a hosted server without a key are not ready, loopback needs none", async () => {
  const { config, cleanup } = await configWith({
    models: { default: HOSTED, open: { provider: "openai-compatible", model: "gpt-4.1" }, local: LOCAL },
  }, undefined);
  try {
    const unset = config.readiness("default");
    assert.equal(unset.ready, false);
    assert.equal(unset.keySet, false);
    assert.match(unset.reason!, /ANTHROPIC_API_KEY \(models.default.apiKeyEnv\) is not set/);
    const keyless = config.readiness("open");
    assert.equal(keyless.ready, false);
    assert.match(keyless.reason!, /api.openai.com without a key: name the environment variable/);
    assert.equal(config.readiness("local").ready, true);
    assert.equal(config.keyOf((config.resolve("local") as { ok: true; model: never }).model), undefined);
  } finally {
    await cleanup();
  }
});

Deno.test("a key written into weft.json is refused at load, naming the field", () => {
  const cases: [unknown, RegExp][] = [
    [
      { models: { default: { ...HOSTED, apiKeyEnv: "sk-ant-api03-abcdefghijklmnop" } } },
      /models\.default\.apiKeyEnv looks like a key/,
    ],
    [{ models: { default: { ...LOCAL, apiKey: "hunter2" } } }, /models\.default\.apiKey looks like a key/],
    [
      { models: { x: { ...LOCAL, baseURL: "http://user:pw@127.0.0.1:8080/v1" } } },
      /models\.x\.baseURL looks like a key/,
    ],
    [
      { models: { x: { ...LOCAL, model: "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8" } } },
      /models\.x\.model looks like a key/,
    ],
  ];
  for (const [file, expected] of cases) {
    const parsed = parseModelConfig(JSON.stringify(file), "weft.json");
    assert.equal(parsed.ok, false);
    assert.match((parsed as { problem: string }).problem, expected);
    assert.match((parsed as { problem: string }).problem, /never written in a file/);
    assert.ok(
      !(parsed as { problem: string }).problem.includes("abcdefghijklmnop"),
      "the refusal repeats the key",
    );
  }
});

Deno.test("a broken project weft.json hides every role with its reason; schema errors name the field", async () => {
  const { config, cleanup } = await configWith(
    { models: { default: { provider: "openai", model: "m" } } },
    {
      models: { default: LOCAL },
    },
    {},
    false,
  );
  try {
    const resolved = config.resolve("default");
    assert.equal(resolved.ok, false);
    assert.match((resolved as { reason: string }).reason, /^weft.json: models.default.provider: /);
  } finally {
    await cleanup();
  }
  const notJson = parseModelConfig("{", "weft.json");
  assert.match((notJson as { problem: string }).problem, /^weft.json: not valid JSON/);
  const unknown = parseModelConfig(
    JSON.stringify({ models: { default: { ...LOCAL, tempreature: 1 } } }),
    "weft.json",
  );
  assert.match((unknown as { problem: string }).problem, /models.default: Unrecognized key: "tempreature"/);
});

Deno.test("a weft.json that is there but cannot be read hides every role; an absent one is no configuration", async () => {
  const projectDir = await tempProject({ "weft.json/inside": "a folder where the file should be" });
  const userDir = await tempProject({ "weft/weft.json": JSON.stringify({ models: { default: LOCAL } }) });
  const env: Record<string, string> = { XDG_CONFIG_HOME: userDir, HOME: userDir };
  try {
    const unreadable = ModelConfig.read(projectDir, (name) => env[name]).resolve("default");
    assert.equal(unreadable.ok, false);
    assert.match((unreadable as { reason: string }).reason, /^weft.json: cannot be read \(/);
    await Deno.remove(`${projectDir}/weft.json`, { recursive: true });
    const absent = ModelConfig.read(projectDir, (name) => env[name]).resolve("default");
    assert.ok(absent.ok);
    assert.equal(absent.model.origin, "user");
  } finally {
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});

Deno.test("the service's roles follow every edit of weft.json: each question sees the file as it is", async () => {
  const projectDir = await tempProject();
  try {
    const roles = modelRolesOf(projectDir);
    // A role only this project names, so whatever the person's own file says does not change the answers.
    const probe = () => roles.list().find((role) => role.role === "edit_probe");
    assert.equal(probe(), undefined);
    await Deno.writeTextFile(`${projectDir}/weft.json`, JSON.stringify({ models: { edit_probe: LOCAL } }));
    assert.match(probe()?.reason ?? "", /not trusted/, "named by the project now, not trusted yet");
    await Deno.writeTextFile(`${projectDir}/weft.json`, "{");
    for (const role of roles.list()) {
      assert.match(role.reason ?? "", /^weft.json: not valid JSON/, `${role.role}: the file broken`);
    }
    assert.match(roles.readiness("edit_probe").reason ?? "", /^weft.json: not valid JSON/);
    await Deno.remove(`${projectDir}/weft.json`);
    assert.equal(probe(), undefined, "the file removed");
  } finally {
    await Deno.remove(projectDir, { recursive: true });
  }
});

Deno.test("the service's roles follow a same-size edit of weft.json made at once, its times unchanged", async () => {
  const projectDir = await tempProject();
  const file = `${projectDir}/weft.json`;
  try {
    const roles = modelRolesOf(projectDir);
    const named = () => roles.list().map((role) => role.role).filter((role) => role.startsWith("probe_"));
    await Deno.writeTextFile(file, JSON.stringify({ models: { probe_a: LOCAL } }));
    const { atime, mtime } = await Deno.stat(file);
    assert.deepEqual(named(), ["probe_a"]);
    // The same size, and the modification time put back: only the content says it changed.
    await Deno.writeTextFile(file, JSON.stringify({ models: { probe_b: LOCAL } }));
    await Deno.utime(file, atime!, mtime!);
    assert.deepEqual(named(), ["probe_b"]);
  } finally {
    await Deno.remove(projectDir, { recursive: true });
  }
});

Deno.test("schema/weft.schema.json is generated from the zod configuration and committed up to date", () => {
  const committed = Deno.readTextFileSync(new URL("../../schema/weft.schema.json", import.meta.url));
  assert.equal(committed, renderModelConfigSchema(), "run: deno run -A src/model/generate_schema.ts");
});

Deno.test("service.idleExit: the user-level file sets the idle exit; absent or unusable, it is 30 minutes", async () => {
  const userDir = await tempProject();
  try {
    const env = (name: string) => name === "XDG_CONFIG_HOME" || name === "HOME" ? userDir : undefined;
    const write = (text: string) => Deno.writeTextFile(`${userDir}/weft/weft.json`, text);
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 1_800_000 }, "no file");
    await Deno.mkdir(`${userDir}/weft`);
    await write(JSON.stringify({ models: {} }));
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 1_800_000 }, "no setting");
    await write(JSON.stringify({ service: { idleExit: "2h" } }));
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 7_200_000 });
    await write(JSON.stringify({ service: { idleExit: 0 } }));
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 0 }, "0 is never");
    await write(JSON.stringify({ service: { idleExit: 90 } }));
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 90_000 }, "a number is seconds");
    await write(JSON.stringify({ service: { idleExit: "soon" } }));
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 1_800_000, invalid: true });
    await write("{ not json");
    assert.deepEqual(configuredIdleExit(env), { idleExitMs: 1_800_000, invalid: true });
    const schema = parseModelConfig(JSON.stringify({ service: { idleExit: "5x" } }), "weft.json");
    assert.ok(!schema.ok && /service\.idleExit: .*90s, 30m, 2h/.test(schema.problem), JSON.stringify(schema));
  } finally {
    await Deno.remove(userDir, { recursive: true });
  }
});

Deno.test(
  "project trust: bound to the real path and the exact content; the user's own entry applies meanwhile",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    const { config, cleanup } = await configWith(
      { models: { default: LOCAL, reviewer: LOCAL } },
      { models: { default: HOSTED } },
      { ANTHROPIC_API_KEY: "k" },
      false,
    );
    try {
      assert.equal(config.trust.trusted, false);
      assert.equal(config.readiness("default").origin, "user");
      const reviewer = config.readiness("reviewer");
      assert.equal(reviewer.ready, false);
      assert.equal(reviewer.trusted, false);
      assert.match(reviewer.reason!, /not trusted.*`weft trust`/);
    } finally {
      await cleanup();
    }
    const projectDir = await tempProject({ "weft.json": JSON.stringify({ models: { default: LOCAL } }) });
    const userDir = await tempProject();
    const link = `${userDir}/link`;
    try {
      await Deno.symlink(projectDir, link);
      await trustProject(link, userDir);
      const env = (name: string) => name === "XDG_CONFIG_HOME" ? userDir : undefined;
      assert.equal(
        ModelConfig.read(projectDir, env).trust.trusted,
        true,
        "trusted through a link: the same folder",
      );
      const twin = await tempProject({ "weft.json": JSON.stringify({ models: { default: LOCAL } }) });
      assert.equal(
        ModelConfig.read(twin, env).trust.trusted,
        false,
        "the same content elsewhere is another project",
      );
      await Deno.remove(twin, { recursive: true });
      await Deno.writeTextFile(
        `${projectDir}/weft.json`,
        JSON.stringify({ models: { default: { ...LOCAL, seed: 1 } } }),
      );
      assert.equal(ModelConfig.read(projectDir, env).trust.trusted, false, "an edit is asked again");
    } finally {
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
  },
);

Deno.test("a key over plain http:// is not ready unless the host is this machine, from either file", async () => {
  const remote = {
    provider: "openai-compatible",
    model: "m",
    baseURL: "http://models.example/v1",
    apiKeyEnv: "K",
  };
  const { config, cleanup } = await configWith(
    { models: { default: remote, local: { ...remote, baseURL: "http://127.0.0.1:8080/v1" } } },
    { models: { personal: remote } },
    { K: "secret" },
  );
  try {
    for (const role of ["default", "personal"]) {
      const readiness = config.readiness(role);
      assert.equal(readiness.ready, false, role);
      assert.match(readiness.reason!, /over plain http:\/\/ to models\.example/);
    }
    assert.equal(config.readiness("local").ready, true);
  } finally {
    await cleanup();
  }
});

Deno.test("a relative HOME gives no user file and no trust record: they would resolve inside the project", () => {
  const config = ModelConfig.read(".", (name) => name === "HOME" ? "." : undefined);
  assert.equal(config.locations.userFile, undefined);
  assert.equal(config.locations.trustFile, undefined);
  assert.equal(config.trust.trusted, false);
});
