/**
 * The project folder on disk as the engine's file port, through the agent tools that read it: confinement
 * (no `..`, no link anywhere, no second hard link, never `.git`, `.weft` or `.env*`), bounds, and no race of
 * renames and links that leads a read or a listing outside.
 */
import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { listProjectFiles, readProjectFile } from "../../src/engine/file_tools.ts";
import type { WalkLimits } from "../../src/files/confined_reads.ts";
import { projectFolder } from "../../src/files/project_folder.ts";
import { tempProject } from "../support/service.ts";
import { sha256Hex } from "../../src/lib/sha256.ts";

const list = (dir: string, sub?: string, limits?: WalkLimits) =>
  listProjectFiles(projectFolder(dir, limits), sub);
const read = (dir: string, path: string) => readProjectFile(projectFolder(dir), path);

/** A project with files that may be read, places that may not, and links out of it; removed after `fn`. */
async function withProject(fn: (dir: string, outside: string) => Promise<void>): Promise<void> {
  const dir = Deno.realPathSync(
    await tempProject({
      "README.md": "hello",
      "src/a.ts": "export {};",
      ".git/config": "secret",
      ".weft/connection.json": "{}",
      ".env": "TOKEN=1",
      ".env.local": "TOKEN=2",
      "config/.env.production": "TOKEN=3",
    }),
  );
  const outside = await tempProject({ "secret.txt": "OUTSIDE-SECRET", "sub/secret.txt": "OUTSIDE-SECRET" });
  try {
    Deno.symlinkSync(`${outside}/secret.txt`, `${dir}/link-out.txt`);
    Deno.symlinkSync(`${dir}/.git/config`, `${dir}/link-git.txt`);
    Deno.symlinkSync(`${dir}/README.md`, `${dir}/link-in.md`);
    Deno.symlinkSync(outside, `${dir}/dir-out`);
    Deno.writeFileSync(`${dir}/big.txt`, new Uint8Array(256 * 1024 + 1).fill(97));
    Deno.writeFileSync(`${dir}/binary.bin`, new Uint8Array([0xff, 0xfe]));
    await fn(dir, outside);
  } finally {
    await removeAll(dir);
    await removeAll(outside);
  }
}

/** Removes a folder that a killed swapper's last command may still be writing to: a few tries, then fail. */
async function removeAll(dir: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      return await Deno.remove(dir, { recursive: true });
    } catch (error) {
      if (attempt === 5 || !(error instanceof Error) || !/not empty/i.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const isCode = (code: string) => (e: unknown) => e instanceof WeftError && e.code === code;

Deno.test("listing hides .git, .weft, .env* and symlinks", () =>
  withProject(async (dir) => {
    assert.deepEqual((await list(dir)).files, ["README.md", "big.txt", "binary.bin", "src/a.ts"]);
    assert.deepEqual((await list(dir, "src")).files, ["src/a.ts"]);
    await assert.rejects(() => list(dir, "dir-out"), isCode("INVALID_REQUEST"));
    await assert.rejects(() => list(dir, "README.md"), isCode("TOOL_FAILED"));
  }));

Deno.test("reading refuses escapes, links and forbidden places", () =>
  withProject(async (dir) => {
    assert.equal((await read(dir, "README.md")).content, "hello");
    assert.equal((await read(dir, "./src//a.ts")).path, "src/a.ts");
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
      // Links are not followed at all, even those that stay inside: what was checked is what is read.
      "link-in.md",
      "dir-out/secret.txt",
    ];
    for (const path of refused) {
      await assert.rejects(() => read(dir, path), isCode("INVALID_REQUEST"), path);
    }
    for (const path of ["big.txt", "binary.bin", "missing.txt", "src"]) {
      await assert.rejects(() => read(dir, path), isCode("TOOL_FAILED"), path);
    }
  }));

Deno.test("denied names are matched the way file systems compare them", () =>
  withProject(async (dir) => {
    for (const name of [".ENV", ".Env", ".env.", ".GIT", ".Weft", ".ENV.Local"]) {
      Deno.writeTextFileSync(`${dir}/${name}`, "TOKEN=9");
      await assert.rejects(() => read(dir, name), isCode("INVALID_REQUEST"), name);
    }
    const listed = (await list(dir)).files;
    assert.ok(!listed.some((path) => /\.(env|git|weft)/i.test(path)), listed.join(", "));
  }));

Deno.test("a file with a second hard link is refused, whichever name is asked for", () =>
  withProject(async (dir, outside) => {
    Deno.linkSync(`${outside}/secret.txt`, `${dir}/hard-out.txt`);
    Deno.linkSync(`${dir}/.env`, `${dir}/notes.txt`);
    for (const path of ["hard-out.txt", "notes.txt"]) {
      await assert.rejects(() => read(dir, path), /more than one hard link/, path);
    }
  }));

Deno.test("a FIFO or a folder is refused at once, never waited on", () =>
  withProject(async (dir) => {
    const mkfifo = new Deno.Command("mkfifo", { args: [`${dir}/pipe.txt`] }).outputSync();
    assert.ok(mkfifo.success, "mkfifo is needed for this test");
    // A read that waited for a writer would never settle: the deadline turns that into a failure that says so.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("reading a FIFO waited for a writer")), 10_000);
    });
    try {
      await assert.rejects(
        () => Promise.race([read(dir, "pipe.txt"), deadline]),
        /not a regular file/,
      );
    } finally {
      clearTimeout(timer);
    }
    await assert.rejects(() => read(dir, "src"), /not a regular file/);
  }));

Deno.test("a walk stops at its entry bound and says it was truncated", () =>
  withProject(async (dir) => {
    for (let i = 0; i < 300; i++) {
      Deno.mkdirSync(`${dir}/empty/${String(i).padStart(3, "0")}`, { recursive: true });
    }
    const cut = await list(dir, "", { entries: 100, ms: 60_000 });
    assert.equal(cut.truncated, true);
    const whole = await list(dir, "", { entries: 1_000, ms: 60_000 });
    assert.equal(whole.truncated, false);
    const stopped = await list(dir, "", { entries: 1_000, ms: -1 });
    assert.deepEqual(stopped, { files: [], truncated: true });
  }));

/**
 * Swaps, in a tight loop, a file for a link out, a folder for a link out, and a file for a FIFO, while reads
 * and listings run: none may return anything from outside, and none may hang.
 */
Deno.test("no interleaving of link, folder and FIFO swaps leads a read or a listing outside", () =>
  withProject(async (dir, outside) => {
    Deno.writeTextFileSync(`${dir}/swap.txt`, "inside");
    Deno.mkdirSync(`${dir}/sub`);
    Deno.writeTextFileSync(`${dir}/sub/secret.txt`, "inside");
    Deno.writeTextFileSync(`${dir}/fifo.txt`, "inside");
    let running = true;
    let swaps = 0;
    // The swapper runs in another process, so its renames interleave with the reads at any point.
    const swapper = new Deno.Command("sh", {
      args: [
        "-c",
        `
      cd "$1"
      ln -s "$2/secret.txt" swap.link; ln -s "$2/sub" sub.link; mkfifo fifo.pipe; cp swap.txt swap.file
      mkdir sub.dir; cp sub/secret.txt sub.dir/; cp fifo.txt fifo.file
      while :; do
        mv -T swap.link swap.txt 2>/dev/null; ln -s "$2/secret.txt" swap.link
        mv -T sub sub.real; mv -T sub.link sub; mv -T sub sub.link; mv -T sub.real sub
        mv -T fifo.pipe fifo.txt; mkfifo fifo.pipe; cp swap.file fifo.tmp; mv -T fifo.tmp fifo.txt
        cp swap.file swap.tmp; mv -T swap.tmp swap.txt
      done`,
        "sh",
        dir,
        outside,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const reads: Promise<void>[] = [];
      let escapes = 0;
      let answered = 0;
      const check = (text: string) => {
        if (text.includes("OUTSIDE-SECRET")) escapes++;
      };
      for (let i = 0; i < 3000 && running; i++) {
        const path = ["swap.txt", "sub/secret.txt", "fifo.txt"][i % 3];
        reads.push(
          read(dir, path).then((file) => check(file.content), (error) => {
            assert.ok(error instanceof WeftError, String(error));
          }).finally(() => void answered++),
        );
        if (i % 50 === 0) {
          reads.push(list(dir, "sub").then((list) => check(list.files.join("\n")), () => {}));
          await Promise.all(reads.splice(0));
          swaps++;
        }
      }
      await Promise.all(reads);
      assert.equal(escapes, 0, "a read returned a file from outside the project");
      assert.ok(answered >= 3000, `every read answered (${answered})`);
      assert.ok(swaps > 0);
    } finally {
      running = false;
      swapper.kill("SIGKILL");
      await swapper.status;
    }
  }));

Deno.test("a write that names the content it replaces leaves any other content as it is, with no temporary file", () =>
  withProject(async (dir) => {
    const files = projectFolder(dir);
    const hello = sha256Hex("hello");
    await assert.rejects(
      files.write("README.md", "replaced", { unchangedFrom: sha256Hex("what the caller saw") }),
      (error: unknown) => error instanceof WeftError && error.code === "CONFLICT",
    );
    await assert.rejects(
      files.write("docs/new.md", "created", { unchangedFrom: hello }),
      (error: unknown) => error instanceof WeftError && error.code === "CONFLICT",
    );
    assert.equal(Deno.readTextFileSync(`${dir}/README.md`), "hello");
    assert.deepEqual([...Deno.readDirSync(dir)].filter((entry) => entry.name.endsWith(".tmp")), []);
    assert.deepEqual([...Deno.readDirSync(`${dir}/docs`)], []);
    await files.write("README.md", "replaced", { unchangedFrom: hello });
    await files.write("docs/new.md", "created", { unchangedFrom: null });
    assert.equal(Deno.readTextFileSync(`${dir}/README.md`), "replaced");
    assert.equal(Deno.readTextFileSync(`${dir}/docs/new.md`), "created");
  }));

Deno.test("a write that names no previous content leaves a file a person created meanwhile as it is", () =>
  withProject(async (dir) => {
    const files = projectFolder(dir);
    // The caller saw no file at docs/note.md; the person then wrote one before the caller's write.
    Deno.mkdirSync(`${dir}/docs`);
    Deno.writeTextFileSync(`${dir}/docs/note.md`, "the person's own note\n");
    await assert.rejects(
      files.write("docs/note.md", "what weft would have written", { unchangedFrom: null }),
      (error: unknown) =>
        error instanceof WeftError && error.code === "CONFLICT" &&
        error.message === "docs/note.md changed while it was being replaced; it was left as it is",
    );
    assert.equal(Deno.readTextFileSync(`${dir}/docs/note.md`), "the person's own note\n");
    assert.deepEqual([...Deno.readDirSync(`${dir}/docs`)].map((entry) => entry.name), ["note.md"]);
  }));
