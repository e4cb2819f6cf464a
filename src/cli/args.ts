/**
 * Command-line parsing shared by every command: `--project`, `--port`, `--json`, `--help`.
 *
 * @module
 */

import { parseArgs, type ParseArgsConfig } from "node:util";
import { resolve } from "node:path";

/** Raised for a wrong command line; the CLI prints it with the command's usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The options every command understands. */
export interface CommonOptions {
  projectDir: string;
  port?: number;
  json: boolean;
  help: boolean;
}

const COMMON: ParseArgsConfig["options"] = {
  project: { type: "string" },
  port: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
};

/** Parses `args` with the common options plus `extra`; unknown options are usage errors. */
export function parseCommand(
  args: string[],
  extra: ParseArgsConfig["options"] = {},
): { common: CommonOptions; values: Record<string, unknown>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...COMMON, ...extra }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { project, port, json, help, ...values } = parsed.values as Record<string, unknown>;
  return {
    common: {
      projectDir: resolve(typeof project === "string" ? project : Deno.cwd()),
      port: port === undefined ? undefined : parsePort(String(port)),
      json: json === true,
      help: help === true,
    },
    values,
    positionals: parsed.positionals,
  };
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port takes a number from 0 to 65535, not "${text}"`);
  }
  return port;
}
