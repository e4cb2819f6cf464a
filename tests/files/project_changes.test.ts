/**
 * The changes port on disk: in a git repository, what changed since a mark with its diff, through git's
 * plumbing that leaves the person's index, HEAD and branches as they were; in a plain folder, which files
 * changed by digest, without a diff. A repository's own `.git/config` and hooks, which come with the
 * project, run nothing: not an fsmonitor, not a hook, not a filter, a textconv, an external diff or a pager.
 */
import assert from "node:assert/strict";
import { projectChanges } from "../../src/files/project_changes.ts";
import { tempProject } from "../support/service.ts";
import { personGit, withRepository } from "../support/git.ts";

/** What git keeps of the person's work: the index file's bytes, HEAD, every ref. */
function personState(dir: string): string {
  const index = Deno.readFileSync(`${dir}/.git/index`);
  return JSON.stringify({
    index: Array.from(index).join(","),
    head: Deno.readTextFileSync(`${dir}/.git/HEAD`),
    refs: personGit(dir, "for-each-ref"),
  });
}

Deno.test("changes in a git repository: the files and their diff since the mark, and the person's index, HEAD and branches untouched", async () => {
  await withRepository(
    {
      "README.md": "# Demo\n",
      "src/app.ts": "export const a = 1;\n",
      "gone.txt": "bye\n",
      ".gitignore": "build/\n",
      ".env": "TOKEN=tracked-secret\n",
    },
    async (dir) => {
      // Staged work of the person's own, which must stay staged exactly as it is.
      Deno.writeTextFileSync(`${dir}/staged.txt`, "staged\n");
      personGit(dir, "add", "staged.txt");
      const before = personState(dir);
      const changes = projectChanges(dir, `${dir}/.weft/changes`);
      const mark = await changes.mark();
      assert.match(mark, /^git:[0-9a-f]{40}$/);

      Deno.writeTextFileSync(`${dir}/src/app.ts`, "export const a = 2;\n");
      Deno.writeTextFileSync(`${dir}/notes.md`, "new\n");
      Deno.removeSync(`${dir}/gone.txt`);
      Deno.mkdirSync(`${dir}/build`);
      Deno.writeTextFileSync(`${dir}/build/out.js`, "ignored\n");
      Deno.writeTextFileSync(`${dir}/.env`, "TOKEN=changed-secret\n");
      Deno.writeTextFileSync(`${dir}/.env.local`, "TOKEN=untracked-secret\n");

      const since = await changes.since(mark, 64 * 1024);
      assert.deepEqual(since.files, [
        { path: "gone.txt", status: "deleted" },
        { path: "notes.md", status: "added" },
        { path: "src/app.ts", status: "modified" },
      ]);
      assert.match(since.diff, /diff --git a\/src\/app\.ts b\/src\/app\.ts\n/);
      assert.match(since.diff, /\n-export const a = 1;\n\+export const a = 2;\n/);
      assert.match(since.diff, /\+\+\+ b\/notes\.md\n@@ -0,0 \+1 @@\n\+new\n/);
      assert.doesNotMatch(since.diff, /secret|ignored/);
      assert.equal(since.cutBytes, 0);
      assert.equal(personState(dir), before, "the index, HEAD and refs are as the person left them");

      const cut = await changes.since(mark, 100);
      assert.ok(new TextEncoder().encode(cut.diff).length <= 100 && cut.diff.endsWith("\n"));
      assert.equal(
        new TextEncoder().encode(cut.diff).length + cut.cutBytes,
        new TextEncoder().encode(since.diff).length,
      );
    },
  );
});

Deno.test("changes in a plain folder: the files that changed, by digest, and no diff", async () => {
  const dir = Deno.realPathSync(await tempProject({ "a.txt": "a\n", "b.txt": "b\n", ".env": "TOKEN=1\n" }));
  try {
    const changes = projectChanges(dir, `${dir}/.weft/changes`);
    const mark = await changes.mark();
    assert.match(mark, /^files:/);
    Deno.writeTextFileSync(`${dir}/a.txt`, "changed\n");
    Deno.removeSync(`${dir}/b.txt`);
    Deno.writeTextFileSync(`${dir}/c.txt`, "c\n");
    Deno.writeTextFileSync(`${dir}/.env`, "TOKEN=2\n");
    assert.deepEqual(await changes.since(mark, 64 * 1024), {
      files: [
        { path: "a.txt", status: "modified" },
        { path: "b.txt", status: "deleted" },
        { path: "c.txt", status: "added" },
      ],
      diff: "",
      cutBytes: 0,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("changes in a folder inside someone else's repository are the folder's own, by digest", async () => {
  await withRepository({ "project/a.txt": "a\n", "other.txt": "o\n" }, async (dir) => {
    const changes = projectChanges(`${dir}/project`, `${dir}/project/.weft/changes`);
    const mark = await changes.mark();
    assert.match(mark, /^files:/, "the repository above the project is not the project's");
    Deno.writeTextFileSync(`${dir}/other.txt`, "changed\n");
    Deno.writeTextFileSync(`${dir}/project/a.txt`, "changed\n");
    assert.deepEqual((await changes.since(mark, 1024)).files, [{ path: "a.txt", status: "modified" }]);
  });
});

Deno.test("changes: a planted .git/config and hooks run nothing (fsmonitor, hooks, filters, textconv, external diff, pager)", async () => {
  await withRepository({ "a.txt": "a\n", ".gitattributes": "*.txt filter=evil diff=evil\n" }, async (dir) => {
    const markers = await Deno.makeTempDir({ prefix: "weft-planted-" });
    try {
      const run = (name: string) => `touch ${markers}/${name}; cat`;
      Deno.writeTextFileSync(
        `${dir}/.git/config`,
        Deno.readTextFileSync(`${dir}/.git/config`) + [
          "[core]",
          `\tfsmonitor = ${markers}/fsmonitor.sh`,
          `\tpager = ${run("pager")}`,
          `\tsshCommand = ${run("ssh")}`,
          '[filter "evil"]',
          `\tclean = ${run("clean")}`,
          `\tsmudge = ${run("smudge")}`,
          "\trequired = true",
          '[diff "evil"]',
          `\ttextconv = ${run("textconv")}`,
          `\tcommand = ${run("diff-command")}`,
          "[diff]",
          `\texternal = ${markers}/external.sh`,
          "",
        ].join("\n"),
      );
      const script = (name: string) => `#!/bin/sh\ntouch ${markers}/${name}\n`;
      Deno.writeTextFileSync(`${markers}/fsmonitor.sh`, script("fsmonitor"), { mode: 0o755 });
      Deno.writeTextFileSync(`${markers}/external.sh`, script("external"), { mode: 0o755 });
      for (const hook of ["post-index-change", "pre-auto-gc", "post-checkout", "reference-transaction"]) {
        Deno.writeTextFileSync(`${dir}/.git/hooks/${hook}`, script(`hook-${hook}`), { mode: 0o755 });
      }

      // Not vacuous: the person's own git does run what was planted.
      Deno.writeTextFileSync(`${dir}/a.txt`, "a, as the person changed it\n");
      personGit(dir, "add", "-A");
      const planted = [...Deno.readDirSync(markers)].map((entry) => entry.name).filter((name) =>
        !name.endsWith(".sh")
      );
      assert.ok(planted.includes("clean") && planted.includes("hook-post-index-change"), planted.join(", "));
      for (const name of planted) Deno.removeSync(`${markers}/${name}`);

      const changes = projectChanges(dir, `${dir}/.weft/changes`);
      const mark = await changes.mark();
      Deno.writeTextFileSync(`${dir}/a.txt`, "a, as the agent changed it\n");
      Deno.writeTextFileSync(`${dir}/b.txt`, "b\n");
      const since = await changes.since(mark, 64 * 1024);

      assert.deepEqual(since.files, [{ path: "a.txt", status: "modified" }, {
        path: "b.txt",
        status: "added",
      }]);
      assert.match(since.diff, /\n-a, as the person changed it\n\+a, as the agent changed it\n/);
      const ran = [...Deno.readDirSync(markers)].map((entry) => entry.name).filter((name) =>
        !name.endsWith(".sh")
      );
      assert.deepEqual(ran, [], "nothing the repository's configuration names was run");
    } finally {
      await Deno.remove(markers, { recursive: true });
    }
  });
});
