/**
 * Replacing a file keeps its temporary file in the caller's folder when one is given, and still replaces the
 * file when that folder is missing or on another filesystem, where a rename cannot reach.
 */

import assert from "node:assert/strict";
import { replaceFile } from "../../src/lib/replace_file.ts";

/** A temporary folder on tmpfs, another filesystem than the temporary folder of the tests. */
const OTHER_FILESYSTEM = "/dev/shm";

async function withFolders(test: (target: string, temporary: string) => Promise<void>): Promise<void> {
  const project = await Deno.makeTempDir({ prefix: "weft-replace-" });
  try {
    await Deno.mkdir(`${project}/tmp`);
    await test(`${project}/docs.md`, `${project}/tmp`);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}

Deno.test("replace file: the temporary file goes to the given folder, never beside the target", async () => {
  await withFolders(async (target, temporary) => {
    await Deno.writeTextFile(target, "old\n");
    let seen: string[] = [];
    const beside = () => [...Deno.readDirSync(target.replace(/\/[^/]+$/, ""))].map((entry) => entry.name);
    await replaceFile(target, "new\n", {
      folder: temporary,
      beforeRename: () => {
        seen = [...Deno.readDirSync(temporary)].map((entry) => entry.name);
        return Promise.resolve();
      },
    });
    assert.equal(await Deno.readTextFile(target), "new\n");
    assert.equal(seen.length, 1, "the text was written in the given folder");
    assert.match(seen[0], /^\.docs\.[A-Za-z0-9_-]+\.tmp$/);
    assert.deepEqual(beside().sort(), ["docs.md", "tmp"]);
    assert.deepEqual([...Deno.readDirSync(temporary)], []);
  });
});

Deno.test("replace file: a folder that is missing or on another filesystem falls back to beside the target", async () => {
  await withFolders(async (target) => {
    await replaceFile(target, "one\n", { folder: `${target}.missing` });
    assert.equal(await Deno.readTextFile(target), "one\n");
    const other = await Deno.makeTempDir({ dir: OTHER_FILESYSTEM, prefix: "weft-replace-" });
    try {
      assert.notEqual(Deno.statSync(other).dev, Deno.statSync(target).dev, "the folders' filesystems differ");
      await replaceFile(target, "two\n", { folder: other });
      assert.equal(await Deno.readTextFile(target), "two\n");
      assert.deepEqual([...Deno.readDirSync(other)], [], "nothing is left where the rename could not reach");
    } finally {
      await Deno.remove(other, { recursive: true });
    }
  });
});
