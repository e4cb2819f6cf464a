/**
 * The release build: the checksum file `deno task compile` writes, and `weft --version` naming the version
 * and the target the program was built for. (`deno compile` itself needs Deno's runtime download, which this
 * machine cannot reach; the bundle test stands in for running the built program.)
 */
import assert from "node:assert/strict";
import { checksums, compileArgs, executableName, TARGETS, V8_FLAGS } from "./compile.ts";
import { VERSION } from "../../src/version.ts";
import { runWeft } from "../support/service.ts";

Deno.test("the checksum file lists each executable's SHA-256 in sha256sum's format, sorted", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-dist-" });
  try {
    await Deno.writeTextFile(`${dir}/weft-b`, "abc");
    await Deno.writeTextFile(`${dir}/weft-a`, "");
    assert.equal(
      await checksums(dir, ["weft-b", "weft-a"]),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  weft-a\n" +
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  weft-b\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every supported target gets its own executable name", () => {
  assert.deepEqual(TARGETS.map(executableName), [
    "weft-x86_64-unknown-linux-gnu",
    "weft-aarch64-unknown-linux-gnu",
    "weft-x86_64-apple-darwin",
    "weft-aarch64-apple-darwin",
    "weft-x86_64-pc-windows-msvc.exe",
  ]);
});

Deno.test("weft --version says the version and the target it was built for", async () => {
  const { code, stdout } = await runWeft(["--version"]);
  assert.equal(code, 0);
  assert.equal(stdout, `weft ${VERSION} (${Deno.build.target})\n`);
});

Deno.test("the executable is built with its V8 flags", () => {
  for (const target of TARGETS) assert.ok(compileArgs(target, "out").includes(V8_FLAGS), target);
});
