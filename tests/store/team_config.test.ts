/**
 * Which team database a project's weft uses comes from the person (their environment or their user-level
 * weft.json, by the project's real path), never from the project's files and never with a password in a file;
 * without it the project stays on SQLite.
 */
import assert from "node:assert/strict";
import { configuredTeamDatabase } from "../../src/model/team_config.ts";
import { parseModelConfig } from "../../src/model/config.ts";
import { openProjectStorage } from "../../src/service/project_storage.ts";
import { WeftError } from "../../src/errors.ts";

const required = (pattern: RegExp) => (error: unknown) =>
  error instanceof WeftError && error.code === "CONFIGURATION_REQUIRED" && pattern.test(error.message);

async function withUserFile(content: unknown, body: (file: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    await Deno.writeTextFile(`${dir}/weft.json`, JSON.stringify(content));
    await body(`${dir}/weft.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const noEnv = () => undefined;

Deno.test("team config: the user-level file names a database per project path, with its user and key", async () => {
  const team = {
    "/work/shop": { database: "postgres://db.internal:5432/shop", user: "alice", project: "shop" },
  };
  await withUserFile({ team }, (file) => {
    assert.deepEqual(configuredTeamDatabase("/work/shop", file, noEnv), {
      url: "postgres://db.internal:5432/shop",
      user: "alice",
      project: "shop",
    });
    assert.equal(
      configuredTeamDatabase("/work/blog", file, noEnv),
      undefined,
      "another project stays on SQLite",
    );
    assert.equal(configuredTeamDatabase("/work/shop", undefined, noEnv), undefined);
    assert.equal(
      parseModelConfig(Deno.readTextFileSync(file), "user").ok,
      true,
      "the file stays a valid config",
    );
  });
});

Deno.test("team config: the environment names the database and the project key, and wins over the file", async () => {
  await withUserFile({ team: { "/p": { database: "postgres://file/db", project: "file" } } }, (file) => {
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    assert.deepEqual(
      configuredTeamDatabase(
        "/p",
        file,
        env({ WEFT_DATABASE_URL: "postgres://env/db", WEFT_PROJECT_KEY: "k" }),
      ),
      { url: "postgres://env/db", project: "k" },
    );
    assert.throws(
      () => configuredTeamDatabase("/p", file, env({ WEFT_DATABASE_URL: "postgres://env/db" })),
      required(/WEFT_PROJECT_KEY/),
    );
  });
});

Deno.test("team config: a password written in the file is refused without being repeated", async () => {
  for (const database of ["postgres://db/shop?password=hunter2", "postgres://:hunter2@db/shop"]) {
    await withUserFile({ team: { "/p": { database, project: "shop" } } }, (file) => {
      assert.throws(() => configuredTeamDatabase("/p", file, noEnv), (error: unknown) => {
        assert.ok(required(/never written in a file/)(error), String(error));
        assert.doesNotMatch((error as Error).message, /hunter2/);
        return true;
      });
    });
  }
  await withUserFile({ team: { "/p": { database: "postgres://db/shop", project: "no spaces" } } }, (file) => {
    assert.throws(() => configuredTeamDatabase("/p", file, noEnv), required(/team\.\/p\.project/));
  });
});

Deno.test("team config: a team database named in the project's own weft.json is ignored: SQLite it is", async () => {
  const project = await Deno.makeTempDir({ prefix: "weft-project-" });
  const home = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    const team = { [project]: { database: "postgres://attacker.example/db", project: "x" } };
    await Deno.writeTextFile(`${project}/weft.json`, JSON.stringify({ team }));
    const env = (name: string) => name === "XDG_CONFIG_HOME" || name === "HOME" ? home : undefined;
    const storage = await openProjectStorage(project, ":memory:", env, () => assert.fail("no team store"));
    assert.equal(storage.kind, "sqlite");
    await storage.close();
  } finally {
    await Deno.remove(project, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
