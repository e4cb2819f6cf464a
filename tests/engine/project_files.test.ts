import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { listProjectFiles, readProjectFile } from "../../src/engine/project_files.ts";
import { tempProject } from "../support/service.ts";

/** A project with files that may be read, places that may not, and links out of it; removed after `fn`. */
async function withProject(fn: (dir: string) => void): Promise<void> {
  const dir = await tempProject({
    "README.md": "hello",
    "src/a.ts": "export {};",
    ".git/config": "secret",
    ".weft/connection.json": "{}",
    ".env": "TOKEN=1",
    ".env.local": "TOKEN=2",
    "config/.env.production": "TOKEN=3",
  });
  const outside = await tempProject({ "secret.txt": "outside" });
  Deno.symlinkSync(`${outside}/secret.txt`, `${dir}/link-out.txt`);
  Deno.symlinkSync(`${dir}/.git/config`, `${dir}/link-git.txt`);
  Deno.symlinkSync(`${dir}/README.md`, `${dir}/link-in.md`);
  Deno.writeFileSync(`${dir}/big.txt`, new Uint8Array(256 * 1024 + 1).fill(97));
  Deno.writeFileSync(`${dir}/binary.bin`, new Uint8Array([0xff, 0xfe]));
  try {
    fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
}

Deno.test("listing hides .git, .weft, .env* and symlinks", async () => {
  await withProject((dir) => {
    assert.deepEqual(listProjectFiles(dir).files, ["README.md", "big.txt", "binary.bin", "src/a.ts"]);
    assert.deepEqual(listProjectFiles(dir, "src").files, ["src/a.ts"]);
  });
});

Deno.test("reading refuses escapes and forbidden places", async () => {
  await withProject((dir) => {
    assert.equal(readProjectFile(dir, "README.md").content, "hello");
    assert.equal(readProjectFile(dir, "./link-in.md").content, "hello");
    const refused = [
      "../x",
      "src/../../x",
      "/etc/passwd",
      ".git/config",
      ".weft/connection.json",
      ".env",
      ".env.local",
      "config/.env.production",
      "link-out.txt",
      "link-git.txt",
    ];
    for (const path of refused) {
      assert.throws(
        () => readProjectFile(dir, path),
        (e) => e instanceof WeftError && e.code === "INVALID_REQUEST",
        path,
      );
    }
    for (const path of ["big.txt", "binary.bin", "missing.txt", "src"]) {
      assert.throws(
        () => readProjectFile(dir, path),
        (e) => e instanceof WeftError && e.code === "TOOL_FAILED",
        path,
      );
    }
  });
});
