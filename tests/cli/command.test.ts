/**
 * The contracts every `weft` command keeps because it is declared with `defineCommand`: `--help` and
 * `weft help <command>` print the same text, every failure under `--json` is one
 * `{"error":{code,message,retryable,fix}}` document on stdout, integer options are parsed one way, and a
 * mistyped command or option is answered with the nearest real one. Run in-process, one command at a time.
 */

import assert from "node:assert/strict";
import { allCommands, main } from "../../src/cli/main.ts";
import { parseInteger } from "../../src/cli/command_line/args.ts";
import { CLI_ERROR_CODES, ERROR_CODES } from "../../src/errors.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

/** Runs `weft ...args` in this process and collects what it printed on stdout and stderr. */
async function weft(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [stdout, stderr] = [Deno.stdout.writeSync, Deno.stderr.writeSync];
  const into = (chunks: string[]) => (bytes: Uint8Array) => {
    chunks.push(new TextDecoder().decode(bytes));
    return bytes.length;
  };
  Deno.stdout.writeSync = into(out);
  Deno.stderr.writeSync = into(err);
  try {
    const code = await main(args);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    Object.assign(Deno.stdout, { writeSync: stdout });
    Object.assign(Deno.stderr, { writeSync: stderr });
  }
}

/** The one error document a failing `--json` command printed, checked for the contract's four fields. */
function errorDocument(stdout: string): { code: string; message: string; retryable: boolean; fix: string } {
  const document = JSON.parse(stdout);
  assert.deepEqual(Object.keys(document), ["error"], stdout);
  assert.deepEqual(Object.keys(document.error).sort(), ["code", "fix", "message", "retryable"], stdout);
  assert.ok(document.error.code in ERROR_CODES || document.error.code in CLI_ERROR_CODES, stdout);
  return document.error;
}

const commands = await allCommands();

Deno.test("`weft help <command>` prints exactly what `weft <command> --help` prints, for every command", async () => {
  for (const command of commands) {
    const viaHelp = await weft("help", command.name);
    const viaFlag = await weft(command.name, "--help");
    assert.equal(viaHelp.code, 0, command.name);
    assert.equal(viaFlag.code, 0, command.name);
    assert.equal(viaHelp.stdout, viaFlag.stdout, command.name);
    assert.match(viaFlag.stdout, new RegExp(`^Usage: weft ${command.name}\\b`), command.name);
    assert.match(viaFlag.stdout, /--project DIR/, command.name);
    assert.match(viaFlag.stdout, /\{"error":\{code,message,retryable,fix\}\}/, command.name);
  }
  const overall = await weft("help");
  for (const command of commands) assert.match(overall.stdout, new RegExp(`^  ${command.name} `, "m"));
});

Deno.test("every command answers a usage error under --json with one error document on stdout", async () => {
  for (const command of commands) {
    const { code, stdout, stderr } = await weft(command.name, "--no-such-option", "--json");
    assert.equal(code, 2, command.name);
    const error = errorDocument(stdout);
    assert.equal(error.code, "USAGE", command.name);
    assert.match(error.message, /unknown option '--no-such-option'/, command.name);
    assert.equal(error.fix, `see \`weft ${command.name} --help\``);
    assert.equal(stderr, "", `${command.name}: the error is printed once, on stdout`);
  }
});

Deno.test("an unknown command or option suggests the nearest one", async () => {
  const command = await weft("florws", "--json");
  assert.equal(command.code, 2);
  assert.match(errorDocument(command.stdout).message, /unknown command "florws"; did you mean `flows`\?/);
  assert.equal(command.stderr, "");
  assert.match((await weft("florws")).stderr, /fix: `weft help` lists the commands/);
  const help = await weft("help", "atach");
  assert.equal(help.code, 2);
  assert.match(help.stderr, /did you mean `attach`\?/);
  const far = await weft("zzzzzzzz");
  assert.doesNotMatch(far.stderr, /did you mean/);
  const option = await weft("runs", "--limt", "3");
  assert.match(option.stderr, /unknown option '--limt'; did you mean --limit\?/);
});

Deno.test("integer options are parsed by one parser: digits only, within the option's range", async () => {
  assert.equal(parseInteger("0", "--port", 0, 65535), 0);
  assert.equal(parseInteger("200", "--limit", 1, 200), 200);
  for (
    const [args, message] of [
      [["runs", "--limit", "0"], '--limit takes a whole number from 1 to 200, not "0"'],
      [["artifacts", "--limit", "2e1"], '--limit takes a whole number from 1 to 200, not "2e1"'],
      [["start", "--port", "65536"], '--port takes a whole number from 0 to 65535, not "65536"'],
      [["serve", "--max-sessions", "-1"], "--max-sessions"],
      [
        ["artifact", "--flow", "f", "--stage", "s", "--revision", "1.5"],
        "--revision takes a whole number from 1",
      ],
    ] as const
  ) {
    const { code, stdout } = await weft(...args, "--json");
    assert.equal(code, 2, args.join(" "));
    assert.ok(errorDocument(stdout).message.includes(message), stdout);
  }
});

Deno.test("a --project that does not exist, or is a file, is refused by name and nothing is created", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-test-" });
  try {
    const typo = `${dir}/my-projcet`;
    for (const name of ["start", "flows", "serve", "doctor"]) {
      const { code, stdout } = await weft(name, "--project", typo, "--json");
      assert.equal(code, 1, name);
      const error = errorDocument(stdout);
      assert.equal(error.code, "PROJECT_NOT_FOUND");
      assert.equal(error.message, `the project directory ${typo} does not exist`);
      assert.match(error.fix, /--project/);
    }
    assert.equal(
      await Deno.stat(typo).then(() => true, () => false),
      false,
      "the mistyped directory was created",
    );
    await Deno.writeTextFile(`${dir}/file`, "");
    const file = await weft("status", "--project", `${dir}/file`);
    assert.equal(file.code, 1);
    assert.match(
      file.stderr,
      new RegExp(`PROJECT_NOT_FOUND: --project must name a directory, and ${dir}/file is a file`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every command that can prompt takes --no-interactive and --json, retry and revise among them", async () => {
  const graph = await moduleGraph();
  const mainSource = await Deno.readTextFile(new URL("../../src/cli/main.ts", import.meta.url));
  const modules = Object.fromEntries(
    [...mainSource.matchAll(/^ {2}(\w+): async \(\) => \(await import\("\.\/([^"]+)"\)\)/gm)]
      .map(([, name, path]) => [name, new URL(`../../src/cli/${path}`, import.meta.url).href]),
  );
  const prompt = new URL("../../src/cli/terminal/prompt.ts", import.meta.url).href;
  const prompting = commands.map((command) => command.name)
    .filter((name) => staticClosure(graph, [modules[name]]).has(prompt));
  // The person who resumes a Run, or brings an edit back, watches it go on and answers it, as after
  // `weft flow`; trust asks y/N.
  assert.deepEqual(prompting.sort(), ["attach", "flow", "retry", "revise", "trust"]);
  for (const name of prompting) {
    const { code, stdout } = await weft(name, "--no-interactive", "--json", "--help");
    assert.equal(code, 0, `${name}: ${stdout}`);
    assert.match(stdout, /--no-interactive +never prompt/, name);
  }
});
