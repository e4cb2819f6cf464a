/**
 * Test support: a real `weft serve` process in a temporary project, and real MCP SDK clients over HTTP.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "./sdk_test_client.ts";
import { unwrapToolResult } from "../../src/client/weft_client.ts";
import type { ConnectionInfo } from "../../src/weft_dir/connection.ts";
import { grantTrust, reviewTrust } from "../../src/model/trust_review.ts";
import { StreamText, within } from "./deadline.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * How weft prints its own commands for a person when run from this checkout (there is no `weft` on PATH),
 * as a regular expression's source.
 */
export const WEFT = `npx -y deno@${Deno.version.deno} run -A ${MAIN}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The `deno` arguments that run this checkout's program; a test of another build passes its own. */
const CHECKOUT = ["run", "-A", MAIN];

/** A running `weft serve` child process. */
export interface ServedProject {
  projectDir: string;
  url: string;
  port: number;
  pid: number;
  instanceId: string;
  connection: ConnectionInfo;
  process: Deno.ChildProcess;
  /** SIGTERM and wait for a clean exit; resolves with the exit code. Later calls (or after kill) do nothing more. */
  stop(): Promise<number>;
  /** SIGKILL, as a crash would, and wait for the process to be gone. Later calls do nothing more. */
  kill(): Promise<void>;
}

/**
 * Runs the program itself (`deno run -A main.ts ...args`, or `program` instead of the last three, and
 * `executable` instead of this Deno) and collects its output.
 */
export async function runWeft(
  args: string[],
  options: {
    cwd?: string;
    stdin?: string;
    env?: Record<string, string>;
    program?: string[];
    executable?: string;
  } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(options.executable ?? Deno.execPath(), {
    args: [...options.program ?? CHECKOUT, ...args],
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await within(`weft ${args.join(" ")} to exit`, child.output()).catch((error) => {
    child.kill("SIGKILL");
    throw error;
  });
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/**
 * A fresh temporary project directory holding `files` (path → text). The caller removes it in a `finally`
 * (`Deno.remove(dir, { recursive: true })`); {@linkcode withServedProject} does both for served projects.
 */
export async function tempProject(files: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "weft-test-" });
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, content);
  }
  return dir;
}

/** How to start `weft serve`; see {@linkcode serve}. */
export interface ServeOptions {
  port?: number | "previous";
  extraArgs?: string[];
  stdin?: "piped" | "null";
  program?: string[];
  cwd?: string;
  /** A command that runs the program, e.g. `["sh", "-c", 'ulimit -n 256 && exec "$@"', "sh"]`. */
  wrapper?: string[];
  /** Variables added to the inherited environment (a model key, an isolated user config folder). */
  env?: Record<string, string>;
}

/** A served temporary project: its files, and what to do in it before the service starts. */
export interface ServedProjectOptions extends ServeOptions {
  files?: Record<string, string>;
  /** Runs in the project directory before `weft serve` starts (seeding a store, making links). */
  setup?: (dir: string) => Promise<void> | void;
  /**
   * Trust the project's weft.json (as `weft trust --yes` would) in a fresh user config folder of the test's
   * own, which the service gets as `XDG_CONFIG_HOME` and which is removed afterwards.
   */
  trusted?: boolean;
}

/**
 * Trusts the project's current weft.json in the user config folder `configHome` (as `XDG_CONFIG_HOME`), the
 * way `weft trust --yes` does; never in the real user's folder.
 */
export async function trustProject(projectDir: string, configHome: string): Promise<void> {
  const env = (name: string) => name === "XDG_CONFIG_HOME" || name === "HOME" ? configHome : undefined;
  await grantTrust(projectDir, reviewTrust(projectDir, env).digest, env);
}

/**
 * Runs `fn` against `weft serve` in a fresh temporary project; whatever happens, the service is stopped and
 * the project removed afterwards.
 */
export function withServedProject<T>(fn: (served: ServedProject) => Promise<T>): Promise<T>;
export function withServedProject<T>(
  options: ServedProjectOptions,
  fn: (served: ServedProject) => Promise<T>,
): Promise<T>;
export async function withServedProject<T>(
  ...args: [(served: ServedProject) => Promise<T>] | [
    ServedProjectOptions,
    (served: ServedProject) => Promise<T>,
  ]
): Promise<T> {
  const [options, fn] = args.length === 1 ? [{}, args[0]] : args;
  const { files, setup, trusted, ...serveOptions } = options;
  const dir = await tempProject(files);
  const configHome = trusted ? await Deno.makeTempDir({ prefix: "weft-user-" }) : undefined;
  try {
    await setup?.(dir);
    if (configHome) {
      await trustProject(dir, configHome);
      serveOptions.env = { ...serveOptions.env, XDG_CONFIG_HOME: configHome };
    }
    const served = await serve(dir, serveOptions);
    try {
      return await fn(served);
    } finally {
      await served.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    if (configHome) await Deno.remove(configHome, { recursive: true });
  }
}

/**
 * Starts `weft serve --project DIR` and waits (within a deadline) for its ready line. The port is 0 (the OS
 * chooses) unless given; `"previous"` passes no `--port`, so the service reuses the port of its last run.
 * `program` and `cwd` run another build of weft, as {@linkcode runWeft} does.
 */
export async function serve(projectDir: string, options: ServeOptions = {}): Promise<ServedProject> {
  const port = options.port === "previous" ? [] : ["--port", String(options.port ?? 0)];
  const args = [...options.program ?? CHECKOUT, "serve", "--project", projectDir, ...port];
  const [command, ...prefix] = options.wrapper ? [...options.wrapper, Deno.execPath()] : [Deno.execPath()];
  const process = new Deno.Command(command, {
    cwd: options.cwd,
    args: [...prefix, ...args, ...(options.extraArgs ?? [])],
    env: options.env,
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stdout = new StreamText(process.stdout, "the stdout of weft serve");
  let lineEnd: number;
  try {
    lineEnd = await stdout.until("\n");
  } catch (error) {
    process.kill("SIGKILL");
    await process.status;
    throw error;
  }
  // Keep draining stdout so the child never blocks on a full pipe; the contract is one line only.
  const rest = stdout.drain(lineEnd);
  const ready = JSON.parse(stdout.text.slice(0, lineEnd));
  if (!ready.ready) throw new Error(`serve did not start: ${stdout.text}`);
  const connection = JSON.parse(await Deno.readTextFile(`${projectDir}/.weft/connection.json`));
  let ended: Promise<number> | undefined;
  const end = (signal: Deno.Signal) =>
    ended ??= (async () => {
      try {
        process.kill(signal);
      } catch {
        // it ended by itself (a test closed its stdin, say)
      }
      const status = await within(`weft serve (pid ${process.pid}) to exit on ${signal}`, process.status);
      const extra = await within("the stdout of weft serve to close", rest);
      if (signal === "SIGTERM" && extra.trim()) {
        throw new Error(
          `serve printed more than its ready line: ${extra}`,
        );
      }
      return status.code;
    })();
  return {
    projectDir,
    ...ready,
    connection,
    process,
    stop: () => end("SIGTERM"),
    async kill() {
      await end("SIGKILL");
    },
  };
}

/** The bearer token that opens `path`. */
export function tokenFor(served: ServedProject, path: string): string {
  return path.startsWith("/internal") ? served.connection.internalToken : served.connection.externalToken;
}

/** A real SDK client connected to `path` of a served project. */
export async function mcpClient(
  served: ServedProject,
  path: string,
  options: { token?: string; capabilities?: Record<string, unknown>; name?: string } = {},
): Promise<Client> {
  const client = new Client(
    { name: options.name ?? "weft-test", version: "0.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  const transport = new StreamableHTTPClientTransport(new URL(path, served.url), {
    requestInit: { headers: { authorization: `Bearer ${options.token ?? tokenFor(served, path)}` } },
  });
  await client.connect(transport);
  return client;
}

/** What calls tools: the v1 client of 2025-11-25 or the v2 client of 2026-07-28 alike. */
export interface ToolClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** Calls a tool and returns its structured result, throwing the classified `WeftError` on an error result. */
export async function call<T = Record<string, unknown>>(
  client: ToolClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  return unwrapToolResult<T>(await client.callTool({ name, arguments: args }));
}

/** Calls a tool that must fail and returns its error payload. */
export async function callError(
  client: ToolClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; retryable: boolean }> {
  const result = await client.callTool({ name, arguments: args }) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { text: string }[];
  };
  if (!result.isError) {
    throw new Error(`${name} succeeded but was expected to fail: ${result.content[0]?.text}`);
  }
  const payload = JSON.parse(result.content[0].text);
  // The classified payload is both the structured content and its JSON text.
  if (JSON.stringify(result.structuredContent) !== JSON.stringify(payload)) {
    throw new Error(`${name} error's structuredContent differs from its text: ${JSON.stringify(result)}`);
  }
  return payload.error;
}

/** Closes a client, ending its session with DELETE first. */
export async function closeClient(client: Client): Promise<void> {
  const transport = client.transport as StreamableHTTPClientTransport | undefined;
  await transport?.terminateSession().catch(() => {});
  await client.close();
}

/** Every file the service wrote under the project's `.weft/`, as text (logs, metadata, database). */
export async function serviceFiles(projectDir: string): Promise<string> {
  const texts: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) texts.push(new TextDecoder("latin1").decode(await Deno.readFile(path)));
    }
  };
  await walk(`${projectDir}/.weft`);
  return texts.join("\n");
}
