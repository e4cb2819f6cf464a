/**
 * `weft mcp` (the IDE bridge) of this checkout for a project, as the tests launch it: behind the SDK's stdio
 * client, as an IDE would, or as a bare child process whose stdin and stdout a test writes and reads itself.
 *
 * @module
 */

import { StdioClientTransport } from "./sdk_test_client.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The arguments that run `weft mcp` for `projectDir` from this checkout. */
function bridgeArgs(projectDir: string): string[] {
  return ["run", "-A", MAIN, "mcp", "--project", projectDir];
}

/**
 * An SDK stdio transport that launches `weft mcp` for `projectDir` (its stderr piped, for the test to read),
 * with `env` added to this process's environment.
 */
export function bridgeTransport(projectDir: string, env: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({
    command: Deno.execPath(),
    args: bridgeArgs(projectDir),
    env: { ...Deno.env.toObject(), ...env },
    stderr: "pipe",
  });
}

/** `weft mcp` for `projectDir` as a child process with piped stdin and stdout; its stderr goes nowhere. */
export function spawnBridge(projectDir: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: bridgeArgs(projectDir),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}
