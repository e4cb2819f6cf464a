/**
 * The committed Studio bundles are the build of the committed page source: `deno task studio` run again, into
 * a temporary folder, gives the same bytes. The build is deterministic (no paths, times or hashes of this
 * machine), so any difference means the page source changed without a rebuild.
 */

import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { buildStudio, GENERATED_HEADER, STUDIO_ASSETS_DIR, STUDIO_BUNDLES } from "../build/studio.ts";

const ROOT = resolve(import.meta.dirname!, "../..");

Deno.test("studio: the committed bundles are the build of the page's source (run `deno task studio` after a change)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-studio-bundle-" });
  try {
    await buildStudio(dir);
    for (const file of Object.keys(STUDIO_BUNDLES)) {
      const built = await Deno.readTextFile(join(dir, file));
      const committed = await Deno.readTextFile(join(ROOT, STUDIO_ASSETS_DIR, file));
      assert.ok(built.startsWith(GENERATED_HEADER), `${file} opens by saying it is generated`);
      assert.ok(
        built === committed,
        `${STUDIO_ASSETS_DIR}/${file} is stale: it differs from a fresh build of src/studio/page/ ` +
          `(${committed.length} bytes committed, ${built.length} built). Run \`deno task studio\` and commit ` +
          "the result.",
      );
      assert.doesNotMatch(built, /\/work\/|\/home\/|\/tmp\//, `${file} holds no path of this machine`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("studio: the page's source never turns data into markup (no innerHTML and kin), so intents and answers stay text", async () => {
  const markup =
    /dangerouslySetInnerHTML|\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/;
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "src/studio/page"))) {
    if (!entry.name.endsWith(".ts")) continue;
    const lines = (await Deno.readTextFile(join(ROOT, "src/studio/page", entry.name))).split("\n");
    lines.forEach((line, index) => {
      if (markup.test(line) && !line.trimStart().startsWith("*")) {
        found.push(`${entry.name}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(found, [], "htm's templates are the page's only way to build elements");
});

Deno.test("studio: the page's program speaks MCP itself, without the SDK's client and its schemas (zod, ajv)", async () => {
  const program = await Deno.readTextFile(join(ROOT, STUDIO_ASSETS_DIR, "studio.js"));
  // Names and messages each of them bundles, which minifying keeps (strings and class names).
  const markers = [
    "StreamableHTTPClientTransport",
    "Server does not support",
    "ZodError",
    "invalid_type",
    "__zod_globalConfig",
    "ajv",
  ];
  assert.deepEqual(
    markers.filter((marker) => program.includes(marker)),
    [],
    "SDK or zod markers in studio.js",
  );
  // 385 KB with them, about 80 KB without (docs/performance.md): a generous bound that only their return breaks.
  assert.ok(program.length < 150_000, `studio.js is ${program.length} bytes`);
});
