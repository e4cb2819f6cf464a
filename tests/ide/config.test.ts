/**
 * `weft config <ide>` and `weft token`: every snippet parses in its IDE's format, names the right endpoint
 * or bridge, and never holds the token; `weft token` prints it only when asked.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { installWeft } from "../support/weft_wrapper.ts";

/** How weft prints itself run from this checkout, with the tests' working folder the checkout's root. */
const checkoutWeft = `npx -y deno@${Deno.version.deno} run -A main.ts`;

const IDES = ["codex", "claude", "cursor", "vscode"] as const;

interface Entry {
  command?: string;
  args?: string[];
  url?: string;
  type?: string;
  headers?: Record<string, string>;
  bearer_token_env_var?: string;
}

Deno.test("weft config prints a parseable entry per IDE, without the token, and weft token prints it", async () => {
  const projectDir = await tempProject();
  try {
    const offline = await runWeft(["config", "codex", "--http", "--project", projectDir]);
    assert.notEqual(offline.code, 0, "the HTTP form needs the port of a service that has run");
    assert.match(offline.stderr, /run -A main\.ts start --project /);
    assert.equal((await runWeft(["config", "emacs", "--project", projectDir])).code, 2);

    const served = await serve(projectDir);
    const { externalToken, internalToken, url } = served.connection;
    await served.stop();

    for (const ide of IDES) {
      const endpoint = ide === "codex" ? "/mcp/codex" : "/mcp";
      const stdio = await runWeft(["config", ide, "--project", projectDir]);
      const http = await runWeft(["config", ide, "--http", "--project", projectDir]);
      for (const output of [stdio, http]) {
        assert.equal(output.code, 0, output.stderr);
        for (const token of [externalToken, internalToken]) {
          assert.ok(!output.stdout.includes(token) && !output.stderr.includes(token), `${ide} leaks a token`);
        }
      }
      const bridge = entryOf(ide, stdio.stdout);
      // From a checkout: npx at this Deno version, never the deno binary of the moment (an npx cache path).
      assert.equal(bridge.command, "npx");
      assert.deepEqual(bridge.args, [
        "-y",
        `deno@${Deno.version.deno}`,
        "run",
        "-A",
        new URL("../../main.ts", import.meta.url).pathname,
        "mcp",
        "--project",
        projectDir,
        ...(ide === "codex" ? ["--codex"] : []),
      ]);
      const direct = entryOf(ide, http.stdout);
      assert.equal(direct.url, new URL(endpoint, url).href, ide);
      if (ide === "codex") assert.equal(direct.bearer_token_env_var, "WEFT_TOKEN");
      else assert.match(direct.headers!.Authorization, /^Bearer \$\{(env:)?WEFT_TOKEN\}$/);
      // The same full form as every other command weft prints, never a bare `weft` a checkout does not have.
      assert.ok(
        http.stderr.includes(`export WEFT_TOKEN="$(${checkoutWeft} token --project ${projectDir})"`),
        http.stderr,
      );
    }
    const vscode = JSON.parse((await runWeft(["config", "vscode", "--project", projectDir])).stdout);
    assert.equal(vscode.servers.weft.type, "stdio");

    const token = await runWeft(["token", "--project", projectDir]);
    assert.equal(token.code, 0);
    assert.equal(token.stdout, `${externalToken}\n`);
  } finally {
    await Deno.remove(projectDir, { recursive: true });
  }
});

Deno.test("the Codex snippet is TOML with timeouts long enough for a person", async () => {
  const projectDir = await tempProject();
  try {
    const output = await runWeft(["config", "codex", "--project", projectDir]);
    const table = parseToml(output.stdout)["mcp_servers.weft"];
    assert.ok(table, output.stdout);
    assert.ok((table.startup_timeout_sec as number) >= 30);
    assert.ok((table.tool_timeout_sec as number) >= 3600, "a person may take an hour");
    assert.ok(Array.isArray(table.args) && table.args.includes("--codex"));
  } finally {
    await Deno.remove(projectDir, { recursive: true });
  }
});

Deno.test("a compiled weft prints itself as the command, never npx or a deno of the moment", async () => {
  const projectDir = await tempProject();
  const binDir = await Deno.makeTempDir({ prefix: "weft-bin-" });
  try {
    // A program not named deno is taken for the compiled weft; a hard link of this deno stands in for one
    // (copied when the temporary folder is on another file system).
    const weft = `${binDir}/weft`;
    await Deno.link(Deno.execPath(), weft).catch(() => Deno.copyFile(Deno.execPath(), weft));
    const output = await runWeft(["config", "claude", "--project", projectDir], { executable: weft });
    assert.equal(output.code, 0, output.stderr);
    assert.deepEqual(entryOf("claude", output.stdout), {
      type: "stdio",
      command: weft,
      args: ["mcp", "--project", projectDir],
    });
  } finally {
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(binDir, { recursive: true });
  }
});

function entryOf(ide: string, stdout: string): Entry {
  if (ide === "codex") return parseToml(stdout)["mcp_servers.weft"] as Entry;
  const parsed = JSON.parse(stdout);
  return (ide === "vscode" ? parsed.servers : parsed.mcpServers).weft;
}

type TomlValue = string | number | string[];

/**
 * Just enough TOML for what `weft config codex` emits: table headers and `key = value` lines whose values are
 * basic strings, integers or arrays of basic strings. Anything else is a failure, not a guess.
 */
function parseToml(text: string): Record<string, Record<string, TomlValue>> {
  const tables: Record<string, Record<string, TomlValue>> = {};
  let current: Record<string, TomlValue> | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const header = /^\[([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\]$/.exec(line);
    if (header) {
      current = tables[header[1]] = {};
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+) = (.+)$/.exec(line);
    if (!pair || !current) throw new Error(`not TOML this parser knows: ${line}`);
    current[pair[1]] = tomlValue(pair[2]);
  }
  return tables;
}

function tomlValue(text: string): TomlValue {
  if (/^[0-9]+$/.test(text)) return Number(text);
  if (text.startsWith('"')) {
    const [value, rest] = basicString(text);
    if (rest.trim()) throw new Error(`trailing text after a string: ${rest}`);
    return value;
  }
  if (!text.startsWith("[") || !text.endsWith("]")) throw new Error(`unsupported TOML value: ${text}`);
  const items: string[] = [];
  let rest = text.slice(1, -1).trim();
  while (rest) {
    const [value, after] = basicString(rest);
    items.push(value);
    rest = after.trim().replace(/^,/, "").trim();
  }
  return items;
}

/** Reads one TOML basic string from the start of `text`; returns it and what follows. */
function basicString(text: string): [string, string] {
  if (!text.startsWith('"')) throw new Error(`expected a string: ${text}`);
  const escapes: Record<string, string> = {
    '"': '"',
    "\\": "\\",
    n: "\n",
    t: "\t",
    r: "\r",
    b: "\b",
    f: "\f",
  };
  let value = "";
  for (let i = 1; i < text.length; i++) {
    const char = text[i];
    if (char === '"') return [value, text.slice(i + 1)];
    if (char !== "\\") {
      value += char;
      continue;
    }
    const next = text[++i];
    if (next === "u") {
      value += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (next in escapes) value += escapes[next];
    else throw new Error(`invalid TOML escape \\${next}`);
  }
  throw new Error(`unterminated string: ${text}`);
}

Deno.test("a checkout's weft, installed as the README says, runs; weft config and the printed commands name it", async () => {
  const projectDir = await tempProject();
  const installed = await installWeft();
  try {
    const env = { PATH: `${installed.binDir}:${Deno.env.get("PATH")}` };
    const version = await runWeft(["--version"], { program: [], executable: installed.path, env });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^weft \d+\.\d+\.\d+ \(/);

    const config = await runWeft(["config", "claude", "--http"], { cwd: projectDir, env });
    assert.notEqual(config.code, 0, "no service has run yet");
    assert.match(config.stderr, /fix: run `weft start` once/, "a fix names the weft on PATH");
    const stdio = await runWeft(["config", "claude"], { cwd: projectDir, env });
    assert.deepEqual(entryOf("claude", stdio.stdout), {
      type: "stdio",
      command: installed.path,
      args: ["mcp", "--project", projectDir],
    });
    // Without the wrapper on PATH, `weft` would run nothing: the full form is printed.
    const bare = await runWeft(["config", "claude", "--http"], { cwd: projectDir });
    assert.match(bare.stderr, /fix: run `npx -y deno@\S+ run -A \S+main\.ts start` once/);
  } finally {
    await installed.remove();
    await Deno.remove(projectDir, { recursive: true });
  }
});
