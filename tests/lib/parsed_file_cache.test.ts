/**
 * Parsed files kept while they stay unchanged: an edit always shows at the next read, even one of the same
 * size within the filesystem's clock tick; an unchanged, settled file is parsed once.
 */
import assert from "node:assert/strict";
import { type FileAccess, ParsedFileCache, RACY_MS } from "../../src/lib/parsed_file_cache.ts";

/** One file on a clock the test moves: its text, and the stat fields the cache compares. */
class FakeFile implements FileAccess {
  text = "one";
  clock = 1_000_000;
  changedAt = this.clock;
  ino: number | null = 7;
  removed = false;
  reads = 0;

  exists(): boolean {
    return !this.removed;
  }

  stat(): Deno.FileInfo {
    if (this.removed) throw new Deno.errors.NotFound("removed");
    return {
      dev: 1,
      ino: this.ino,
      size: this.text.length,
      // A filesystem clock a whole second coarse, as Deno reports change times.
      mtime: new Date(this.changedAt - (this.changedAt % 1000)),
      ctime: new Date(this.changedAt - (this.changedAt % 1000)),
    } as Deno.FileInfo;
  }

  readText(): string {
    this.reads++;
    return this.text;
  }

  now(): number {
    return this.clock;
  }
}

function cacheOn(file: FakeFile): ParsedFileCache<{ text: string }> {
  return new ParsedFileCache((text) => ({ text }), file);
}

Deno.test("parsed file cache: a same-size edit within the clock's tick shows at the next read", () => {
  const file = new FakeFile();
  const cache = cacheOn(file);
  assert.equal(cache.read("weft.json")?.text, "one");
  // Same size, same second, same inode: the stat identity cannot tell the two apart.
  file.text = "two";
  file.clock += 10;
  assert.equal(cache.read("weft.json")?.text, "two");
  file.text = "six";
  file.clock += RACY_MS - 20;
  assert.equal(cache.read("weft.json")?.text, "six", "still within the racy window of its last change");
});

Deno.test("parsed file cache: a settled file is read once while it is unchanged, and again after an edit", () => {
  const file = new FakeFile();
  const cache = cacheOn(file);
  file.clock += RACY_MS + 1000;
  const first = cache.read("weft.json")!;
  assert.equal(cache.read("weft.json"), first, "the same parse, shared");
  assert.equal(file.reads, 1);
  assert.ok(Object.isFrozen(first), "a shared parse cannot be changed by one reader");
  file.text = "two";
  file.changedAt = file.clock;
  assert.equal(cache.read("weft.json")?.text, "two");
  assert.equal(file.reads, 2);
});

Deno.test("parsed file cache: without an inode to compare, every read reads the file", () => {
  const file = new FakeFile();
  file.ino = null;
  const cache = cacheOn(file);
  file.clock += RACY_MS + 1000;
  cache.read("weft.json");
  cache.read("weft.json");
  assert.equal(file.reads, 2);
});

Deno.test("parsed file cache: a file removed, kept or not, reads as none", () => {
  const file = new FakeFile();
  const cache = cacheOn(file);
  file.clock += RACY_MS + 1000;
  assert.equal(cache.read("weft.json")?.text, "one");
  file.removed = true;
  assert.equal(cache.read("weft.json"), undefined);
  assert.equal(cache.read("weft.json"), undefined);
  file.removed = false;
  file.text = "two";
  file.changedAt = file.clock;
  assert.equal(cache.read("weft.json")?.text, "two");
});
